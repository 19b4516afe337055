import PrewarmCache
import PrewarmCore

/// What the cache holds for one URL: its original (when the group stores originals) and every
/// variant. Freshness costs one stat per entry (see DiskCache.lookup).
struct CacheState {
    /// Every required entry exists and is within `max_age`.
    var allFresh: Bool
    /// Every required entry exists (fresh or stale).
    var allPresent: Bool
    /// The stored ETag / Last-Modified, for `refresh_cached`; read only when entries exist.
    var validator: (etag: String?, lastModified: String?)?

    /// For `from_loader_only`: the cache is not consulted at all.
    static let ignored = CacheState(allFresh: false, allPresent: false, validator: nil)

    /// The cache keys this URL needs: the original's, then each variant's.
    static func keys(item: WorkItem, group: GroupContext) -> [String] {
        var keys = group.settings.storeOriginal ? [item.key] : []
        keys += group.variants.map { $0.key(base: item.key) }
        return keys
    }

    static func read(item: WorkItem, job: JobContext, group: GroupContext, now: Double) -> CacheState {
        var fresh = true
        var present = true
        let keys = keys(item: item, group: group)
        for key in keys {
            switch job.cache.lookup(key: key, maxAge: job.maxAge, now: now) {
            case .fresh: continue
            case .stale: fresh = false
            case .absent:
                fresh = false
                present = false
            }
            if !present { break }
        }
        var validator: (String?, String?)? = nil
        if present, let first = keys.first, group.has(.refreshCached),
            let metadata = job.cache.metadata(key: first)
        {
            validator = (metadata.etag, metadata.lastModified)
        }
        // Nothing to store at all (store_original false and no variants) means nothing can be
        // cached: such a URL is always fetched (it still proves the origin serves it).
        if keys.isEmpty { return CacheState(allFresh: false, allPresent: false, validator: nil) }
        return CacheState(allFresh: fresh, allPresent: present, validator: validator)
    }
}
