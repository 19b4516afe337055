/// Everything the report sinks learn about one URL when it ends: one `--events` line, one row in
/// the totals. Built by the pipeline, consumed by PrewarmReport.
public struct URLResult: Sendable, Hashable {
    /// The URL as it may be shown: credentials redacted (see `Redaction`).
    public var url: String
    public var job: String
    public var group: String
    public var outcome: Outcome
    /// Set when `outcome == .failed`.
    public var reason: FailureReason?
    /// The last HTTP status seen, if any request was answered.
    public var status: Int?
    /// Requests made for this URL (0 when nothing was fetched).
    public var attempts: Int
    /// Body bytes downloaded, over all attempts.
    public var bytesDownloaded: Int64
    /// Bytes written to the cache: the original and every variant.
    public var bytesWritten: Int64
    /// Wall time from the URL's start to its outcome, in milliseconds.
    public var milliseconds: Double
    /// The original's cache file, when stored or found.
    public var path: String?
    /// Variant name → cache file, in manifest order.
    public var variants: [NamedPath]
    /// Variants written by this URL (0 when they were already cached).
    public var variantsWritten: Int
    /// A human-readable detail for failures ("unsupported_format: AVIF", curl's message, ...).
    public var detail: String?

    public init(
        url: String, job: String, group: String, outcome: Outcome, reason: FailureReason? = nil,
        status: Int? = nil, attempts: Int = 0, bytesDownloaded: Int64 = 0, bytesWritten: Int64 = 0,
        milliseconds: Double = 0, path: String? = nil, variants: [NamedPath] = [],
        variantsWritten: Int = 0, detail: String? = nil
    ) {
        self.url = url
        self.job = job
        self.group = group
        self.outcome = outcome
        self.reason = reason
        self.status = status
        self.attempts = attempts
        self.bytesDownloaded = bytesDownloaded
        self.bytesWritten = bytesWritten
        self.milliseconds = milliseconds
        self.path = path
        self.variants = variants
        self.variantsWritten = variantsWritten
        self.detail = detail
    }
}

/// A name and a file path: one variant's cache file.
public struct NamedPath: Sendable, Hashable, Codable {
    public var name: String
    public var path: String

    public init(name: String, path: String) {
        self.name = name
        self.path = path
    }
}
