import PrewarmCore

/// The counts of a run, a job or a group: the `totals` object of the JSON report.
///
/// The JSON keys are exactly the SPEC's: `urls`, `finished`, `skipped`, one per outcome,
/// `variants_written`, `bytes_downloaded`, `bytes_written`. `finished` and `skipped` are derived
/// (all ended; cached + blacklisted) so they can never disagree with the outcome counts.
public struct Totals: Sendable, Hashable, Codable {
    /// URLs planned (never fewer than have ended).
    public var urls: Int = 0
    /// Downloaded and stored.
    public var fetched: Int = 0
    /// 304 Not Modified; kept and renewed.
    public var revalidated: Int = 0
    /// Fresh in the cache; nothing fetched.
    public var cached: Int = 0
    /// Skipped because it failed permanently within `failed_ttl`.
    public var blacklisted: Int = 0
    /// `from_cache_only` and not cached.
    public var missing: Int = 0
    /// Failed after its retries.
    public var failed: Int = 0
    /// The run was interrupted before it ended.
    public var cancelled: Int = 0
    /// Variant files written.
    public var variantsWritten: Int = 0
    /// Body bytes downloaded, over all attempts.
    public var bytesDownloaded: Int64 = 0
    /// Bytes written to the cache (originals and variants).
    public var bytesWritten: Int64 = 0

    /// Empty totals.
    public init() {}

    /// Every URL that has ended, whatever its outcome.
    public var finished: Int {
        fetched + revalidated + cached + blacklisted + missing + failed + cancelled
    }
    /// Cached + blacklisted (failures are not "skipped", unlike SDWebImagePrefetcher).
    public var skipped: Int { cached + blacklisted }

    /// The count of one outcome.
    public func count(of outcome: Outcome) -> Int {
        switch outcome {
        case .fetched: return fetched
        case .revalidated: return revalidated
        case .cached: return cached
        case .blacklisted: return blacklisted
        case .missing: return missing
        case .failed: return failed
        case .cancelled: return cancelled
        }
    }

    /// Counts one ended URL. `urls` grows when more URLs end than were planned, so the invariant
    /// `urls >= finished` holds even for results the plan did not announce.
    public mutating func add(_ result: URLResult) {
        switch result.outcome {
        case .fetched: fetched += 1
        case .revalidated: revalidated += 1
        case .cached: cached += 1
        case .blacklisted: blacklisted += 1
        case .missing: missing += 1
        case .failed: failed += 1
        case .cancelled: cancelled += 1
        }
        variantsWritten += result.variantsWritten
        bytesDownloaded += result.bytesDownloaded
        bytesWritten += result.bytesWritten
        urls = max(urls, finished)
    }

    /// Adds another set of totals to this one (jobs from groups, a run from jobs, merged shards).
    public mutating func add(_ other: Totals) {
        urls += other.urls
        fetched += other.fetched
        revalidated += other.revalidated
        cached += other.cached
        blacklisted += other.blacklisted
        missing += other.missing
        failed += other.failed
        cancelled += other.cancelled
        variantsWritten += other.variantsWritten
        bytesDownloaded += other.bytesDownloaded
        bytesWritten += other.bytesWritten
    }

    /// The sum of many totals.
    public static func sum<S: Sequence>(_ all: S) -> Totals where S.Element == Totals {
        var total = Totals()
        for item in all { total.add(item) }
        return total
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case urls, finished, skipped, fetched, revalidated, cached, blacklisted, missing, failed,
            cancelled
        case variantsWritten = "variants_written"
        case bytesDownloaded = "bytes_downloaded"
        case bytesWritten = "bytes_written"
    }

    /// Reads totals; `finished` and `skipped` are recomputed from the outcome counts.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        urls = try c.decode(Int.self, forKey: .urls)
        fetched = try c.decode(Int.self, forKey: .fetched)
        revalidated = try c.decode(Int.self, forKey: .revalidated)
        cached = try c.decode(Int.self, forKey: .cached)
        blacklisted = try c.decode(Int.self, forKey: .blacklisted)
        missing = try c.decode(Int.self, forKey: .missing)
        failed = try c.decode(Int.self, forKey: .failed)
        cancelled = try c.decode(Int.self, forKey: .cancelled)
        variantsWritten = try c.decode(Int.self, forKey: .variantsWritten)
        bytesDownloaded = try c.decode(Int64.self, forKey: .bytesDownloaded)
        bytesWritten = try c.decode(Int64.self, forKey: .bytesWritten)
    }

    /// Writes every SPEC key, the derived ones included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(urls, forKey: .urls)
        try c.encode(finished, forKey: .finished)
        try c.encode(skipped, forKey: .skipped)
        try c.encode(fetched, forKey: .fetched)
        try c.encode(revalidated, forKey: .revalidated)
        try c.encode(cached, forKey: .cached)
        try c.encode(blacklisted, forKey: .blacklisted)
        try c.encode(missing, forKey: .missing)
        try c.encode(failed, forKey: .failed)
        try c.encode(cancelled, forKey: .cancelled)
        try c.encode(variantsWritten, forKey: .variantsWritten)
        try c.encode(bytesDownloaded, forKey: .bytesDownloaded)
        try c.encode(bytesWritten, forKey: .bytesWritten)
    }
}
