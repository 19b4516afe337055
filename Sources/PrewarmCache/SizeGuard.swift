import Synchronization

/// Keeps the cache within `max_size` during a run without rescanning it after every store.
///
/// It keeps a running estimate: the size found by the last scan plus the bytes stored since. The
/// first store of a run scans (so a warm re-run that stores nothing never scans); when the
/// estimate passes `max_size`, one caller rescans and trims to the low-water mark while the others
/// carry on. The cache therefore never exceeds `max_size` by more than the bytes stored while a
/// trim runs (bytes in flight). `finish()` rescans at the end of a run that stored anything, so
/// other processes' writes are counted too, and trims if needed.
public final class SizeGuard: Sendable {
    public let maxSize: Int64
    private let cache: DiskCache
    private let state = Mutex(State())

    private struct State {
        var scannedBytes: Int64?
        var storedSinceScan: Int64 = 0
        var storedThisRun: Int64 = 0
        var trimming = false
        var removedEntries = 0
    }

    init(cache: DiskCache, maxSize: Int64) {
        self.cache = cache
        self.maxSize = maxSize
    }

    /// Records a store (call after `DiskCache.store` returns); trims when needed.
    public func didStore(_ entry: StoredEntry) {
        didStore(bytes: entry.diskBytes)
    }

    /// Records a store of `bytes` on disk (body and metadata); trims when needed.
    public func didStore(bytes: Int64) {
        guard maxSize > 0 else { return }
        let countedBeforeScan: Int64? = state.withLock { state in
            state.storedThisRun += bytes
            state.storedSinceScan += bytes
            guard !state.trimming else { return nil }
            if let scanned = state.scannedBytes, scanned + state.storedSinceScan <= maxSize {
                return nil
            }
            state.trimming = true
            return state.storedSinceScan
        }
        guard let countedBeforeScan else { return }
        let report = cache.trim(maxSize: maxSize)
        state.withLock { state in
            // Stores that landed during the scan may be counted twice: an overestimate only
            // brings the next trim forward.
            state.scannedBytes = report.totalBytes
            state.storedSinceScan -= countedBeforeScan
            state.removedEntries += report.removedEntries
            state.trimming = false
        }
    }

    /// The running estimate of the cache's size, nil before the first scan.
    public var estimatedBytes: Int64? {
        state.withLock { state in state.scannedBytes.map { $0 + state.storedSinceScan } }
    }

    /// Entries removed by this guard's trims so far.
    public var removedEntries: Int { state.withLock { $0.removedEntries } }

    /// Ends the run: if anything was stored, rescans and trims to the low-water mark when the
    /// cache is over `max_size`. Returns the trim's report, or nil when nothing needed checking.
    @discardableResult
    public func finish() -> TrimReport? {
        guard maxSize > 0, state.withLock({ $0.storedThisRun > 0 }) else { return nil }
        let report = cache.trim(maxSize: maxSize)
        state.withLock { state in
            state.scannedBytes = report.totalBytes
            state.storedSinceScan = 0
            state.storedThisRun = 0
            state.removedEntries += report.removedEntries
        }
        return report
    }
}

extension DiskCache {
    /// A size guard for one run; `maxSize` ≤ 0 means unlimited (the guard does nothing).
    public func makeSizeGuard(maxSize: Int64) -> SizeGuard {
        SizeGuard(cache: self, maxSize: maxSize)
    }
}
