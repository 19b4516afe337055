/// What the cache knows about one entry, stored next to the body as `<h>.meta` (JSON). The README's
/// cache section documents the fields for consumers that read the cache without prewarm.
public struct EntryMetadata: Codable, Sendable, Hashable {
    /// The cache key (the URL after the key filters; a variant's key includes its description).
    public var key: String
    /// The URL the body came from (for a variant, its source image's URL).
    public var url: String
    /// The body's file extension: `jpg`, `png`, `webp` or `gif`.
    public var format: String
    /// The origin's Content-Type, if it sent one.
    public var contentType: String?
    /// Validators for revalidation (If-None-Match / If-Modified-Since).
    public var etag: String?
    public var lastModified: String?
    /// When the body was fetched or last revalidated, seconds since the epoch.
    public var fetchedAt: Double
    /// Body size in bytes (set by `DiskCache.store` from the body).
    public var size: Int64
    /// Pixel dimensions, when known (nil with `avoid_decode`).
    public var width: Int?
    public var height: Int?
    /// Lowercase hex SHA-256 of the body (set by `DiskCache.store`); `cache verify` checks it.
    public var sha256: String
    /// The variant's transform description (e.g. `w320h320-cover-webp-q80`), nil for originals.
    public var variant: String?
    /// For a variant: the cache key of the original it was made from.
    public var sourceKey: String?

    public init(
        key: String, url: String, format: String, contentType: String? = nil, etag: String? = nil,
        lastModified: String? = nil, fetchedAt: Double, size: Int64 = 0, width: Int? = nil,
        height: Int? = nil, sha256: String = "", variant: String? = nil, sourceKey: String? = nil
    ) {
        self.key = key
        self.url = url
        self.format = format
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.fetchedAt = fetchedAt
        self.size = size
        self.width = width
        self.height = height
        self.sha256 = sha256
        self.variant = variant
        self.sourceKey = sourceKey
    }
}

/// The answer of `DiskCache.lookup`: whether an entry exists and whether it is younger than
/// `max_age`. `fetchedAt` is the fetch (or last revalidation) time, seconds since the epoch.
public enum CacheLookup: Sendable, Equatable {
    case fresh(fetchedAt: Double)
    case stale(fetchedAt: Double)
    case absent
}

/// What `DiskCache.store` wrote: the body's final path and its size.
public struct StoredEntry: Sendable, Equatable {
    /// The body file.
    public var path: String
    /// The body's size in bytes.
    public var bytesWritten: Int64
    /// The `.meta` file's size in bytes.
    public var metadataBytes: Int64

    public init(path: String, bytesWritten: Int64, metadataBytes: Int64 = 0) {
        self.path = path
        self.bytesWritten = bytesWritten
        self.metadataBytes = metadataBytes
    }

    /// Everything the entry occupies on disk: what counts against `max_size`.
    public var diskBytes: Int64 { bytesWritten + metadataBytes }
}

/// One entry of the failed-URL list (blacklist): a permanent failure and when it happened.
public struct FailedRecord: Codable, Sendable, Equatable {
    public var url: String
    /// The stable failure code, e.g. `http_404`, `not_an_image`.
    public var reason: String
    /// The last HTTP status, if any.
    public var status: Int?
    /// When it failed, seconds since the epoch.
    public var at: Double
    public var attempts: Int

    public init(url: String, reason: String, status: Int?, at: Double, attempts: Int) {
        self.url = url
        self.reason = reason
        self.status = status
        self.at = at
        self.attempts = attempts
    }
}
