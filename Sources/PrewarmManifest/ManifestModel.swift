import PrewarmCore

/// A parsed, validated manifest (SPEC "Manifest"). Every group carries its fully resolved
/// settings: `defaults` merged with the group's own keys.
public struct Manifest: Sendable {
    /// The manifest file's path, as given.
    public var file: String
    /// `job`, or the file name without its extension.
    public var job: String
    public var cache: CacheSettings
    public var network: NetworkSettings
    /// The job-wide `defaults.concurrency` (the job's bound on URLs in flight).
    public var concurrency: Int
    public var groups: [Group]

    public init(
        file: String, job: String, cache: CacheSettings, network: NetworkSettings,
        concurrency: Int, groups: [Group]
    ) {
        self.file = file
        self.job = job
        self.cache = cache
        self.network = network
        self.concurrency = concurrency
        self.groups = groups
    }
}

/// `cache:`.
public struct CacheSettings: Sendable, Hashable {
    /// `cache.path`; nil when the manifest leaves it to `--cache` / environment.
    public var path: String?
    /// `max_age` in seconds; entries older are stale. nil = never stale.
    public var maxAge: Double?
    /// `max_size` in bytes; 0 = unlimited.
    public var maxSize: Int64
    public var key: CacheKeySettings

    public init(path: String? = nil, maxAge: Double? = nil, maxSize: Int64 = 0, key: CacheKeySettings = .init()) {
        self.path = path
        self.maxAge = maxAge
        self.maxSize = maxSize
        self.key = key
    }
}

/// `cache.key:` — which parts of a URL make up its cache key.
public struct CacheKeySettings: Sendable, Hashable {
    public var dropQuery: Bool
    public var dropQueryParams: [String]

    public init(dropQuery: Bool = false, dropQueryParams: [String] = []) {
        self.dropQuery = dropQuery
        self.dropQueryParams = dropQueryParams
    }
}

/// `network:`.
public struct NetworkSettings: Sendable, Hashable {
    /// Address classes refused in addition to link-local, which is always refused.
    public var deny: [AddressClass]

    public init(deny: [AddressClass] = []) { self.deny = deny }
}

/// A class of IP addresses that `network.deny` can refuse.
public enum AddressClass: Sendable, Hashable {
    /// 127.0.0.0/8, ::1.
    case loopback
    /// 10/8, 172.16/12, 192.168/16, fc00::/7.
    case privateRange
    /// 169.254/16, fe80::/10 (cloud metadata endpoints live here). Always refused.
    case linkLocal
    /// Any CIDR block, e.g. `100.64.0.0/10`, as written in the manifest.
    case cidr(String)
}

/// Settings every group inherits from `defaults` and may override.
public struct GroupSettings: Sendable, Hashable {
    /// The group's own bound inside the job's; nil = only the job's bound applies.
    public var concurrency: Int?
    public var perHost: Int
    /// Requests per second per host; 0 = unlimited.
    public var rate: Double
    public var order: Order
    /// Per-attempt timeout, seconds.
    public var timeout: Double
    public var retries: Int
    /// First retry delay, seconds; doubled each time, jittered.
    public var backoff: Double
    /// Seconds a permanent failure stays blacklisted.
    public var failedTTL: Double
    public var maxBytes: Int64
    public var maxPixels: Int64
    /// In manifest order.
    public var headers: [Header]
    public var auth: BasicAuth?
    public var options: Set<Option>
    public var storeOriginal: Bool
    public var variants: [VariantSpec]

    /// The defaults SPEC.md gives (SDWebImagePrefetcher's concurrency 3, SDWebImageDownloader's 15 s).
    public init(
        concurrency: Int? = nil, perHost: Int = 6, rate: Double = 0, order: Order = .fifo,
        timeout: Double = 15, retries: Int = 2, backoff: Double = 1, failedTTL: Double = 86_400,
        maxBytes: Int64 = 50 * 1_048_576, maxPixels: Int64 = 100_000_000, headers: [Header] = [],
        auth: BasicAuth? = nil, options: Set<Option> = [], storeOriginal: Bool = true,
        variants: [VariantSpec] = []
    ) {
        self.concurrency = concurrency
        self.perHost = perHost
        self.rate = rate
        self.order = order
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.failedTTL = failedTTL
        self.maxBytes = maxBytes
        self.maxPixels = maxPixels
        self.headers = headers
        self.auth = auth
        self.options = options
        self.storeOriginal = storeOriginal
        self.variants = variants
    }
}

/// Order within one priority bucket.
public enum Order: String, Sendable, Hashable, CaseIterable {
    case fifo
    case lifo
}

/// One request header. `isSecret` is true when its value came from `${...}`: it is then redacted
/// from every output.
public struct Header: Sendable, Hashable {
    public var name: String
    public var value: String
    public var isSecret: Bool

    public init(name: String, value: String, isSecret: Bool = false) {
        self.name = name
        self.value = value
        self.isSecret = isSecret
    }
}

/// `auth:` — HTTP basic authentication. The password is always treated as a secret.
public struct BasicAuth: Sendable, Hashable {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// SDWebImageOptions, for a worker (SPEC "Options").
public enum Option: String, Sendable, Hashable, CaseIterable {
    case retryFailed = "retry_failed"
    case refreshCached = "refresh_cached"
    case fromCacheOnly = "from_cache_only"
    case fromLoaderOnly = "from_loader_only"
    case avoidDecode = "avoid_decode"
    case decodeFirstFrameOnly = "decode_first_frame_only"
    case scaleDownLargeImages = "scale_down_large_images"
    case allowInvalidSSL = "allow_invalid_ssl"
    case handleCookies = "handle_cookies"
    case highPriority = "high_priority"
    case lowPriority = "low_priority"
}

/// One entry of `variants:`.
public struct VariantSpec: Sendable, Hashable {
    public var name: String
    /// At least one of `width`, `height` is set; the missing one keeps the aspect ratio.
    public var width: Int?
    public var height: Int?
    public var fit: Fit
    public var format: VariantFormat
    /// 1...100.
    public var quality: Int
    public var enlarge: Bool

    public init(
        name: String, width: Int? = nil, height: Int? = nil, fit: Fit = .contain,
        format: VariantFormat = .auto, quality: Int = 80, enlarge: Bool = false
    ) {
        self.name = name
        self.width = width
        self.height = height
        self.fit = fit
        self.format = format
        self.quality = quality
        self.enlarge = enlarge
    }
}

public enum Fit: String, Sendable, Hashable, CaseIterable {
    /// Fit inside the box, keeping the aspect ratio.
    case contain
    /// Fill the box, keeping the aspect ratio; the overflow is cropped around the centre.
    case cover
    /// Stretch to exactly the box.
    case fill
}

public enum VariantFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg
    case png
    case webp
    /// The source's own format.
    case original
    /// Animated → webp, alpha → png, else jpeg.
    case auto
}

/// One group of URLs, with its resolved settings.
public struct Group: Sendable {
    public var name: String
    /// The group's priority after `high_priority` / `low_priority` were applied.
    public var priority: Priority
    public var settings: GroupSettings
    public var source: URLSource
    /// Where the group starts in the manifest, for messages.
    public var line: Int

    public init(name: String, priority: Priority, settings: GroupSettings, source: URLSource, line: Int) {
        self.name = name
        self.priority = priority
        self.settings = settings
        self.source = source
        self.line = line
    }
}

/// Where a group's URLs come from. `url_file` lists are streamed, never held whole in memory.
public enum URLSource: Sendable {
    /// `urls:`.
    case list([String])
    /// `url_file:`, resolved against the manifest's folder; already validated line by line.
    case file(path: String, count: Int)
    /// `url_template:` with `values:`; keys in `values:` order, each with its expanded values.
    /// URLs are expanded with the first key varying slowest.
    case template(template: String, values: [TemplateValues])
}

/// One placeholder of a `url_template` and the values it takes (`"1..500"` is already expanded).
public struct TemplateValues: Sendable, Hashable {
    public var name: String
    public var values: [String]

    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }
}

/// One manifest error, reported as `FILE:LINE:COLUMN: message` (lines and columns start at 1).
public struct ManifestIssue: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// Every error found in one pass over one or more manifests.
public struct ManifestErrors: Error, Sendable, CustomStringConvertible {
    public var issues: [ManifestIssue]

    public init(issues: [ManifestIssue]) { self.issues = issues }

    public var description: String { issues.map(\.description).joined(separator: "\n") }
}
