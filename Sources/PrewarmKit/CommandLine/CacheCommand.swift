import Foundation
import PrewarmCache
import PrewarmCore
import PrewarmManifest

/// `prewarm cache stats|clean|clear|path|verify|failed ... [--cache DIR]`.
struct CacheCommand {
    let console: Console
    let environment: [String: String]

    static let options = [
        OptionSpec("cache", value: "DIR", help: "cache directory (else the manifest's, $PREWARM_CACHE, ...)"),
        OptionSpec("manifest", value: "FILE", help: "take cache.path, max_age, max_size, key rules and variants from it"),
        OptionSpec("variant", value: "NAME", help: "path: the variant's file instead of the original's"),
        OptionSpec("max-age", value: "DURATION", help: "clean: entries older than this are removed (e.g. 7d)"),
        OptionSpec("max-size", value: "SIZE", help: "clean: trim to this size, oldest access first (e.g. 20GiB)"),
        OptionSpec("fix", help: "verify: remove the bad entries it finds"),
        OptionSpec("help", help: "show this help"),
    ]

    static var help: String {
        """
        usage: prewarm cache COMMAND [flags]

          stats              entries, bytes, formats, oldest/newest fetch, failed-list size
          clean              remove expired entries, orphans and crash leftovers; trim to max_size
          clear              remove every entry and the failed list (keeps the folder)
          path URL           print the cache file of URL (with --variant NAME --manifest M)
          verify [--fix]     check every entry against its recorded size and SHA-256
          failed list|clear  show or empty the failed-URL list (the blacklist)

        \(ArgumentParser.helpText(for: options))
        """
    }

    func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        let parsed = try ArgumentParser.parse(arguments, options: Self.options)
        guard let command = parsed.positionals.first, !parsed.has("help") else {
            console.out(Self.help)
            return parsed.has("help") ? ExitCode.success : ExitCode.usage
        }
        let manifest = try loadManifest(parsed)
        let root = CacheLocation.resolve(
            flag: parsed.value("cache"), manifestPath: manifest?.cache.path, environment: environment)
        let needsExisting = command != "path"
        if needsExisting && !FileManager.default.fileExists(atPath: root + "/v1") {
            console.error("prewarm: no prewarm cache at \(root) (no v1/ folder); pass --cache DIR or --manifest FILE")
            return ExitCode.environment
        }
        let cache: DiskCache
        do {
            cache = try DiskCache(root: root)
        } catch {
            console.error("prewarm: \(error.description)")
            return ExitCode.environment
        }
        let rest = Array(parsed.positionals.dropFirst())
        switch command {
        case "stats": return stats(cache)
        case "clean": return try clean(cache, parsed: parsed, manifest: manifest)
        case "clear": return clear(cache)
        case "path": return try path(cache, rest: rest, parsed: parsed, manifest: manifest)
        case "verify": return verify(cache, fix: parsed.has("fix"))
        case "failed": return try failed(cache, rest: rest)
        default:
            throw UsageError("unknown cache command '\(command)'; one of stats, clean, clear, path, verify, failed")
        }
    }

    private func loadManifest(_ parsed: ParsedArguments) throws(UsageError) -> Manifest? {
        guard let path = parsed.value("manifest") else { return nil }
        do {
            return try ManifestLoader.load(path: path, environment: environment)
        } catch {
            throw UsageError(ManifestReport.describe(error))
        }
    }

    private func stats(_ cache: DiskCache) -> Int32 {
        let stats = cache.statistics()
        var lines = ["cache \(cache.root)", "entries \(stats.entries)", "bytes \(stats.bytes) (\(Self.megabytes(stats.bytes)))"]
        for (format, totals) in stats.byFormat.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(format): \(totals.entries) entries, \(Self.megabytes(totals.bytes))")
        }
        if let oldest = stats.oldestFetch, let newest = stats.newestFetch {
            lines.append("oldest fetch \(Self.iso(oldest)), newest fetch \(Self.iso(newest))")
        }
        lines.append("failed-URL list \(stats.failedRecords)")
        lines.append("crash leftovers: \(stats.tempLeftovers) temp files, \(stats.orphans) orphan bodies (prewarm cache clean removes them)")
        console.out(lines.joined(separator: "\n"))
        return ExitCode.success
    }

    private func clean(_ cache: DiskCache, parsed: ParsedArguments, manifest: Manifest?) throws(UsageError) -> Int32 {
        var maxAge = manifest?.cache.maxAge
        var maxSize = manifest?.cache.maxSize ?? 0
        if let text = parsed.value("max-age") {
            guard let value = ManifestValues.duration(text) else {
                throw UsageError("--max-age takes a duration like 7d or 12h; got '\(text)'")
            }
            maxAge = value
        }
        if let text = parsed.value("max-size") {
            guard let value = ManifestValues.byteSize(text) else {
                throw UsageError("--max-size takes a size like 20GiB or 500MB; got '\(text)'")
            }
            maxSize = value
        }
        let report = cache.clean(maxAge: maxAge, maxSize: maxSize, now: Date().timeIntervalSince1970)
        console.out(
            "removed \(report.expiredEntries) expired, \(report.trimmedEntries) trimmed, \(report.orphanBodies) orphans, \(report.tempFiles) temp files; freed \(Self.megabytes(report.freedBytes)); \(Self.megabytes(report.remainingBytes)) remain"
        )
        return ExitCode.success
    }

    private func clear(_ cache: DiskCache) -> Int32 {
        do {
            try cache.clear()
            console.out("cleared \(cache.root)")
            return ExitCode.success
        } catch {
            console.error("prewarm: \(error.description)")
            return ExitCode.environment
        }
    }

    private func path(_ cache: DiskCache, rest: [String], parsed: ParsedArguments, manifest: Manifest?) throws(UsageError) -> Int32 {
        guard rest.count == 1, let url = rest.first else {
            throw UsageError("cache path takes one URL: prewarm cache path URL [--variant NAME --manifest M]")
        }
        let filter = CacheKeyFilter(
            dropQuery: manifest?.cache.key.dropQuery ?? false,
            dropQueryParams: manifest?.cache.key.dropQueryParams ?? [])
        var key = filter.key(for: url)
        var expectedExtension = Self.pathExtension(of: url).flatMap { ImageFormat(fileExtension: $0 == "jpeg" ? "jpg" : $0) }?.fileExtension ?? "jpg"
        if let name = parsed.value("variant") {
            guard let manifest else { throw UsageError("--variant needs --manifest FILE (variants are defined there)") }
            let variants = manifest.groups.flatMap(\.settings.variants)
            guard let spec = variants.first(where: { $0.name == name }) else {
                let known = Set(variants.map(\.name)).sorted().joined(separator: ", ")
                throw UsageError("no variant '\(name)' in \(manifest.file) (it has: \(known.isEmpty ? "none" : known))")
            }
            key = VariantKey.key(base: key, description: VariantDescription.of(spec))
            switch spec.format {
            case .jpeg: expectedExtension = "jpg"
            case .png: expectedExtension = "png"
            case .webp: expectedExtension = "webp"
            case .original, .auto: break
            }
        }
        if let metadata = cache.metadata(key: key) {
            console.out(cache.bodyPath(key: key, ext: metadata.format))
            return ExitCode.success
        }
        console.out(cache.bodyPath(key: key, ext: expectedExtension))
        console.error("prewarm: not cached yet (the path above is where it will be)")
        return ExitCode.failures
    }

    private func verify(_ cache: DiskCache, fix: Bool) -> Int32 {
        let report = cache.verify(fix: fix)
        for problem in report.problems {
            console.out("\(fix ? "removed" : "bad") \(problem.path): \(problem.reason)")
        }
        console.error(
            "checked \(report.checked) entries: \(report.problems.count) bad\(fix ? ", removed" : report.problems.isEmpty ? "" : " (run with --fix to remove them)")"
        )
        return report.problems.isEmpty || fix ? ExitCode.success : ExitCode.failures
    }

    private func failed(_ cache: DiskCache, rest: [String]) throws(UsageError) -> Int32 {
        switch rest.first ?? "list" {
        case "list":
            let now = Date().timeIntervalSince1970
            for record in cache.failedEntries().sorted(by: { $0.at < $1.at }) {
                let status = record.status.map { " (HTTP \($0))" } ?? ""
                console.out("\(Self.iso(record.at))  \(record.reason)\(status)  \(record.url)  [\(Int(now - record.at))s ago]")
            }
            return ExitCode.success
        case "clear":
            console.out("removed \(cache.clearFailed()) failed-URL records")
            return ExitCode.success
        case let other:
            throw UsageError("unknown 'cache failed' command '\(other)'; use list or clear")
        }
    }

    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }

    static func iso(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    static func pathExtension(of url: String) -> String? {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        return path[path.index(after: dot)...].lowercased()
    }
}
