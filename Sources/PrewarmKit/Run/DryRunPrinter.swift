import PrewarmCore
import PrewarmManifest
import PrewarmReport

/// `--dry-run`: the resolved plan, on stdout — jobs, caches, groups in scheduling order with their
/// URL counts and settings, variants with their key descriptions, and the first URLs of each group.
enum DryRunPrinter {
    static func describe(plan: RunPlan, jobs: [JobContext], options: RunOptions) -> String {
        var lines: [String] = []
        lines.append("prewarm \(prewarmVersion) — dry run, nothing will be fetched")
        if let shard = options.shard { lines.append("shard \(shard) (URLs whose cache key hashes to \(shard.index))") }
        if let bound = options.concurrency { lines.append("run concurrency bound: \(bound)") }
        for (job, jobPlan) in zip(jobs, plan.jobs) {
            let manifest = job.manifest
            lines.append("")
            lines.append("job \(job.name) (\(manifest.file)): \(jobPlan.urlCount) URLs, concurrency \(manifest.concurrency)")
            lines.append("  cache: \(job.cache.root)")
            let order = zip(manifest.groups, jobPlan.groups).enumerated().sorted { lhs, rhs in
                lhs.element.0.priority != rhs.element.0.priority
                    ? lhs.element.0.priority > rhs.element.0.priority : lhs.offset < rhs.offset
            }
            for (index, (group, groupPlan)) in order {
                let settings = group.settings
                var summary = "  group \(group.name): \(groupPlan.urlCount) URLs, priority \(group.priority.name), \(settings.order.rawValue)"
                if let limit = settings.concurrency { summary += ", concurrency \(limit)" }
                summary += ", timeout \(settings.timeout)s, retries \(settings.retries)"
                if !settings.options.isEmpty {
                    summary += ", options [\(settings.options.map(\.rawValue).sorted().joined(separator: ", "))]"
                }
                lines.append(summary)
                if !settings.storeOriginal { lines.append("    original: not stored") }
                for variant in job.groups[index].variants {
                    lines.append("    variant \(variant.name): \(variant.description)")
                }
                let cursor = URLSourceCursor(group.source)
                var shown = 0
                while shown < 3, let url = cursor.next() {
                    lines.append("    \(Redaction.url(url))")
                    shown += 1
                }
                if groupPlan.urlCount > shown { lines.append("    … \(groupPlan.urlCount - shown) more") }
            }
        }
        return lines.joined(separator: "\n")
    }
}
