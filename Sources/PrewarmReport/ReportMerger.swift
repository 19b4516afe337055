import Foundation

/// Joins the reports of the shards of one run (`prewarm report merge`) into the report that one
/// process doing all their work would have written.
///
/// - Totals, reasons and byte counts are summed; jobs and groups are matched by name (a group's
///   priority comes from the first report that has it).
/// - Latency histograms are added and the percentiles recomputed, so they are exact, not averages
///   of percentiles.
/// - `started_at` is the earliest start, `ended_at` the latest end, `duration_seconds` the span
///   between them; per-group `elapsed_seconds` are re-based on the earliest start.
/// - `shard` becomes null; `interrupted` is true when any shard was.
/// - `failures` are concatenated in report order and capped at `RunReport.failureListLimit`; the
///   overflow is added to `failures_truncated`.
/// - `exit_code` is the most severe code of any shard, by this precedence (most severe first):
///   3 (fatal environment) > 2 (usage/manifest) > 4 (lock held) > 143 (SIGTERM) > 130 (SIGINT) >
///   other non-zero codes > 1 (some URL failed) > 0. A shard that could not work at all makes the
///   merged run unusable; an interruption says it is incomplete; failures only say some URLs need
///   attention.
public enum ReportMerger {
    /// Why reports cannot be merged. Indexes are positions in the list given to `merge`.
    public enum MergeError: Error, Sendable, Hashable, CustomStringConvertible {
        /// Nothing to merge.
        case noReports
        /// Two reports are the same shard (a report given twice, or a shard run twice).
        case duplicateShard(index: Int, count: Int, reports: [Int])
        /// Shards of runs split different ways (`K/N` with different N).
        case mismatchedShardCounts([Int])

        /// A message saying what is wrong and what to check.
        public var description: String {
            switch self {
            case .noReports:
                return "no reports to merge"
            case .duplicateShard(let index, let count, let reports):
                let which = reports.map { "#\($0 + 1)" }.joined(separator: " and ")
                return "shard \(index)/\(count) appears more than once (reports \(which)); "
                    + "give each shard's report once"
            case .mismatchedShardCounts(let counts):
                let list = counts.map(String.init).joined(separator: ", ")
                return "the reports come from runs split into different shard counts (\(list)); "
                    + "merge only shards of one run"
            }
        }
    }

    /// Merges reports; see the type's documentation for the rules.
    public static func merge(_ reports: [RunReport]) throws(MergeError) -> RunReport {
        guard let first = reports.first else { throw MergeError.noReports }
        try checkShards(reports)

        let startedAt = reports.map(\.startedAt).min()!
        let endedAt = reports.map(\.endedAt).max()!
        var jobs = JobsMerge()
        var histogram = LatencyHistogram()
        var failures: [FailureRecord] = []
        var truncated = 0
        var failedByReason: [String: Int] = [:]
        var skippedByReason: [String: Int] = [:]
        for report in reports {
            let shift = report.startedAt.timeIntervalSince(startedAt)
            for job in report.jobsDetail { jobs.add(job, shiftedBy: shift) }
            for name in report.jobs { jobs.noteName(name) }
            histogram.merge(report.latencyMs.histogram)
            failedByReason.merge(report.failedByReason, uniquingKeysWith: +)
            skippedByReason.merge(report.skippedByReason, uniquingKeysWith: +)
            truncated += report.failuresTruncated
            let room = max(0, RunReport.failureListLimit - failures.count)
            failures.append(contentsOf: report.failures.prefix(room))
            truncated += max(0, report.failures.count - room)
        }
        let detail = jobs.details
        return RunReport(
            version: first.version, jobs: jobs.names, startedAt: startedAt, endedAt: endedAt,
            durationSeconds: endedAt.timeIntervalSince(startedAt), shard: nil,
            exitCode: mostSevere(reports.map(\.exitCode)),
            interrupted: reports.contains { $0.interrupted },
            totals: Totals.sum(detail.map(\.totals)), jobsDetail: detail,
            skippedByReason: skippedByReason, failedByReason: failedByReason,
            latencyMs: LatencySummary(histogram: histogram), failures: failures,
            failuresTruncated: truncated)
    }

    /// The most severe of several exit codes (see the type's documentation).
    public static func mostSevere(_ codes: [Int]) -> Int {
        codes.max { severity($0) < severity($1) } ?? 0
    }

    static func severity(_ code: Int) -> Int {
        switch code {
        case 0: return 0
        case 1: return 1
        case 130: return 3
        case 143: return 4
        case 4: return 5
        case 2: return 6
        case 3: return 7
        default: return 2
        }
    }

    private static func checkShards(_ reports: [RunReport]) throws(MergeError) {
        let counts = Set(reports.compactMap { $0.shard?.count })
        if counts.count > 1 { throw MergeError.mismatchedShardCounts(counts.sorted()) }
        var seen: [Int: [Int]] = [:]
        for (position, report) in reports.enumerated() {
            if let shard = report.shard { seen[shard.index, default: []].append(position) }
        }
        if let (index, positions) = seen.sorted(by: { $0.key < $1.key }).first(where: {
            $0.value.count > 1
        }) {
            throw MergeError.duplicateShard(
                index: index, count: counts.first ?? 0, reports: positions)
        }
    }
}

/// Jobs and groups matched by name, in order of first appearance.
private struct JobsMerge {
    private(set) var names: [String] = []
    private var jobs: [String: JobDetail] = [:]

    var details: [JobDetail] { names.compactMap { jobs[$0] } }

    mutating func noteName(_ name: String) {
        if !names.contains(name) { names.append(name) }
    }

    mutating func add(_ job: JobDetail, shiftedBy shift: Double) {
        noteName(job.job)
        var merged =
            jobs[job.job]
            ?? JobDetail(
                job: job.job, totals: Totals(), elapsedSeconds: 0, failedByReason: [:], groups: [])
        merged.totals.add(job.totals)
        if job.totals.finished > 0 {
            merged.elapsedSeconds = max(merged.elapsedSeconds, job.elapsedSeconds + shift)
        }
        merged.failedByReason.merge(job.failedByReason, uniquingKeysWith: +)
        for group in job.groups {
            let elapsed = group.totals.finished > 0 ? group.elapsedSeconds + shift : 0
            if let g = merged.groups.firstIndex(where: { $0.group == group.group }) {
                merged.groups[g].totals.add(group.totals)
                merged.groups[g].elapsedSeconds = max(merged.groups[g].elapsedSeconds, elapsed)
            } else {
                var copy = group
                copy.elapsedSeconds = elapsed
                merged.groups.append(copy)
            }
        }
        jobs[job.job] = merged
    }
}
