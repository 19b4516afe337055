/// What a size trim did.
public struct TrimReport: Sendable, Equatable {
    /// Entries removed.
    public var removedEntries: Int
    /// Bytes freed.
    public var freedBytes: Int64
    /// Bytes in the cache afterwards (as scanned).
    public var totalBytes: Int64

    public init(removedEntries: Int = 0, freedBytes: Int64 = 0, totalBytes: Int64 = 0) {
        self.removedEntries = removedEntries
        self.freedBytes = freedBytes
        self.totalBytes = totalBytes
    }
}

extension DiskCache {
    /// The size a trim brings the cache down to: 90% of `max_size`, so that a cache at its limit is
    /// not rescanned after every store.
    public static func lowWaterMark(maxSize: Int64) -> Int64 { maxSize - maxSize / 10 }

    /// If the cache holds more than `maxSize` bytes (files' sizes: bodies and metadata), removes
    /// the least recently used entries until it holds at most the low-water mark. Nothing happens
    /// when `maxSize` ≤ 0 (unlimited).
    @discardableResult
    public func trim(maxSize: Int64) -> TrimReport {
        trim(entries: scanEntries(), maxSize: maxSize)
    }

    func trim(entries: [ScannedEntry], maxSize: Int64) -> TrimReport {
        var total = entries.reduce(Int64(0)) { $0 + $1.bytes }
        var report = TrimReport(totalBytes: total)
        guard maxSize > 0, total > maxSize else { return report }
        let target = Self.lowWaterMark(maxSize: maxSize)
        // Least recently used first; what this run stored or touched has the newest times, so it
        // goes last.
        for entry in entries.sorted(by: { $0.lastUse < $1.lastUse }) {
            if total <= target { break }
            guard removeScanned(entry) else { continue }
            total -= entry.bytes
            report.removedEntries += 1
            report.freedBytes += entry.bytes
        }
        report.totalBytes = total
        return report
    }
}
