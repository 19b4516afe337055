/// How one URL of a run ended. Every URL ends in exactly one outcome (SPEC "Outcomes and counts").
///
/// SDWebImagePrefetcher counts `finished` and `skipped`, and calls failures "skipped"; prewarm
/// keeps failures apart: `skipped` = `cached` + `blacklisted`, and `failed` is its own count.
public enum Outcome: String, CaseIterable, Sendable, Codable, Hashable {
    /// Downloaded and stored.
    case fetched
    /// The origin answered 304 Not Modified; the stored entry was kept and renewed.
    case revalidated
    /// Fresh in the cache; nothing was fetched.
    case cached
    /// Skipped: it failed permanently within `failed_ttl`.
    case blacklisted
    /// `from_cache_only` and not in the cache.
    case missing
    /// Failed after its retries, with a `FailureReason`.
    case failed
    /// The run was interrupted before this URL ended.
    case cancelled

    /// Whether this outcome counts as "skipped" in the totals.
    public var isSkipped: Bool { self == .cached || self == .blacklisted }
}
