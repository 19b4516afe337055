import Foundation
import PrewarmCore

/// `prewarm cache stats`: what the cache holds.
public struct CacheStatistics: Sendable, Equatable {
    public struct FormatTotals: Sendable, Equatable {
        public var entries: Int = 0
        public var bytes: Int64 = 0
    }
    /// Complete entries (with metadata), originals and variants alike.
    public var entries: Int = 0
    /// Bytes on disk under `v1/` (bodies, metadata and orphans).
    public var bytes: Int64 = 0
    /// Entries and body bytes per extension (`jpg png webp gif`).
    public var byFormat: [String: FormatTotals] = [:]
    /// Oldest and newest fetch times (seconds since the epoch), nil when empty.
    public var oldestFetch: Double?
    public var newestFetch: Double?
    /// Records in the failed-URL list.
    public var failedRecords: Int = 0
    /// Temp files in `tmp/` that a sweep would remove.
    public var tempLeftovers: Int = 0
    /// Bodies without metadata (past the grace period).
    public var orphans: Int = 0
}

/// `prewarm cache clean`: what was removed.
public struct CleanReport: Sendable, Equatable {
    public var expiredEntries: Int = 0
    public var orphanBodies: Int = 0
    public var tempFiles: Int = 0
    public var trimmedEntries: Int = 0
    public var freedBytes: Int64 = 0
    /// Bytes left under `v1/`.
    public var remainingBytes: Int64 = 0
}

/// `prewarm cache verify`: the entries that failed a check.
public struct VerifyReport: Sendable, Equatable {
    public struct Problem: Sendable, Equatable {
        /// The file at fault (body or metadata).
        public var path: String
        /// What is wrong, e.g. `size 100 != 120 in metadata`.
        public var reason: String
    }
    /// Entries checked.
    public var checked: Int = 0
    public var problems: [Problem] = []
    /// Whether the bad entries were removed (`fix`).
    public var fixed: Bool = false
}

extension DiskCache {
    /// Counts entries, bytes and leftovers by scanning the cache (listings and stat(2) only).
    public func statistics() -> CacheStatistics {
        let now = FileSystem.now()
        var stats = CacheStatistics()
        for entry in scanEntries() {
            stats.bytes += entry.bytes
            guard entry.hasMeta else {
                if !orphanBodies(of: entry, now: now).isEmpty { stats.orphans += 1 }
                continue
            }
            stats.entries += 1
            if let body = entry.bodies.last {
                stats.byFormat[body.ext, default: .init()].entries += 1
                stats.byFormat[body.ext, default: .init()].bytes += body.size
            }
            stats.oldestFetch = min(stats.oldestFetch ?? entry.fetchedAt, entry.fetchedAt)
            stats.newestFetch = max(stats.newestFetch ?? entry.fetchedAt, entry.fetchedAt)
        }
        stats.failedRecords = countFailed()
        stats.tempLeftovers = TempFiles.countLeftovers(directory: layout.tempDirectory, now: now)
        return stats
    }

    /// Removes entries fetched `maxAge` or more seconds before `now` (nil: none expire), orphan
    /// bodies and leftover temp files, then trims to the low-water mark if the cache is still
    /// over `maxSize` (≤ 0: unlimited).
    @discardableResult
    public func clean(maxAge: Double?, maxSize: Int64, now: Double) -> CleanReport {
        var report = CleanReport()
        report.tempFiles = TempFiles.sweep(directory: layout.tempDirectory, now: now)
        var kept: [ScannedEntry] = []
        for var entry in scanEntries() {
            if entry.hasMeta, let maxAge, now - entry.fetchedAt >= maxAge {
                if removeScanned(entry) {
                    report.expiredEntries += 1
                    report.freedBytes += entry.bytes
                    continue
                }
            }
            let orphans = orphanBodies(of: entry, now: now)
            for body in orphans {
                FileSystem.remove(entry.bodyPath(body))
                report.orphanBodies += 1
                report.freedBytes += body.size
            }
            entry.bodies.removeAll { body in orphans.contains { $0.ext == body.ext } }
            if entry.hasMeta || !entry.bodies.isEmpty { kept.append(entry) }
        }
        let trim = trim(entries: kept, maxSize: maxSize)
        report.trimmedEntries = trim.removedEntries
        report.freedBytes += trim.freedBytes
        report.remainingBytes = trim.totalBytes
        return report
    }

    /// Removes every entry, the failed-URL list and temp files, keeping the root and the lock
    /// files (runs holding a lock keep it). The entry tree is first renamed aside, so concurrent
    /// readers see either the old cache or an empty one; a concurrent store recreates its
    /// directories.
    public func clear() throws(CacheError) {
        for directory in [layout.entriesDirectory, layout.failedDirectory] {
            let aside = layout.tempDirectory + "/" + TempFiles.makeName(suffix: "trash")
            let code = FileSystem.rename(directory, aside)
            if code != 0 && code != ENOENT { throw CacheError.from(errno: code, path: directory) }
            try FileSystem.makeDirectories(directory)
            if code == 0 {
                do {
                    try FileManager.default.removeItem(atPath: aside)
                } catch {
                    throw CacheError.io(aside, "cannot remove: \(error.localizedDescription)")
                }
            }
        }
        for name in FileSystem.entries(of: layout.tempDirectory) where !name.hasSuffix(".trash") {
            let path = layout.tempDirectory + "/" + name
            // Temp files of live runs on this host are theirs to rename; leave them.
            if let info = FileSystem.status(path),
                TempFiles.isLeftover(
                    name: name, modified: info.st_mtim.seconds, now: FileSystem.now())
            {
                FileSystem.remove(path)
            }
        }
    }

    /// Checks every entry: metadata readable, body present, size and SHA-256 as recorded; bodies
    /// without metadata are reported as orphans. With `fix`, bad entries and orphans are removed.
    public func verify(fix: Bool) -> VerifyReport {
        let now = FileSystem.now()
        var report = VerifyReport(fixed: fix)
        for entry in scanEntries() {
            for body in orphanBodies(of: entry, now: now) {
                report.problems.append(
                    .init(path: entry.bodyPath(body), reason: "orphan body without metadata"))
                if fix { FileSystem.remove(entry.bodyPath(body)) }
            }
            guard entry.hasMeta else { continue }
            report.checked += 1
            if let problem = check(entry) {
                report.problems.append(problem)
                if fix { removeScanned(entry) }
            }
        }
        return report
    }

    private func check(_ entry: ScannedEntry) -> VerifyReport.Problem? {
        guard let meta = readMetadata(at: entry.metaPath) else {
            return .init(path: entry.metaPath, reason: "metadata unreadable")
        }
        if CacheLayout.hash(of: meta.key) != entry.hash {
            return .init(path: entry.metaPath, reason: "metadata is for another key (\(meta.key))")
        }
        let bodyPath = layout.entryFile(hash: entry.hash, suffix: meta.format)
        guard let info = FileSystem.status(bodyPath) else {
            return .init(path: bodyPath, reason: "body missing")
        }
        if Int64(info.st_size) != meta.size {
            return .init(path: bodyPath, reason: "size \(info.st_size) != \(meta.size) in metadata")
        }
        var hasher = SHA256()
        guard FileSystem.forEachChunk(bodyPath, { hasher.update($0) }) else {
            return .init(path: bodyPath, reason: "body unreadable")
        }
        let digest = SHA256.hexString(hasher.finalize())
        if digest != meta.sha256 {
            return .init(path: bodyPath, reason: "sha256 \(digest) != \(meta.sha256) in metadata")
        }
        return nil
    }
}
