// The loader's public value types: what a caller asks for and what it gets back.

/// Settings that hold for every request of one loader (one run).
public struct LoaderConfiguration: Sendable {
    /// Connections open at once to one host (`per_host`); further requests wait for one.
    public var perHostConnections: Int
    /// Requests started per second per host (`rate`); 0 = unlimited.
    public var perHostRate: Double
    /// Connections open at once over all hosts; 0 = unlimited.
    public var maxTotalConnections: Int
    /// The User-Agent header sent with every request.
    public var userAgent: String

    public init(
        perHostConnections: Int = 6, perHostRate: Double = 0, maxTotalConnections: Int = 0,
        userAgent: String = "prewarm"
    ) {
        self.perHostConnections = perHostConnections
        self.perHostRate = perHostRate
        self.maxTotalConnections = maxTotalConnections
        self.userAgent = userAgent
    }
}

/// One request header, sent as `name: value`.
public struct HTTPHeaderField: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// HTTP basic-auth credentials.
public struct Credentials: Sendable, Hashable {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// One fetch of one URL: a single attempt (retries are the pipeline's job).
public struct LoadRequest: Sendable {
    public var url: String
    public var headers: [HTTPHeaderField] = []
    public var credentials: Credentials? = nil
    /// Seconds for the whole attempt, redirects included.
    public var timeout: Double = 15
    /// Seconds to establish the connection.
    public var connectTimeout: Double = 10
    /// Larger bodies fail as `.tooLarge`.
    public var maxBytes: Int64 = 50 << 20
    /// Redirects followed before failing as `.tooManyRedirects`.
    public var maxRedirects: Int = 5
    /// Accept any TLS certificate (tests only).
    public var allowInvalidSSL: Bool = false
    /// Keep cookies between the requests of this loader that also set this.
    public var useCookies: Bool = false
    /// Sent as `If-None-Match` (an ETag from the cache).
    public var ifNoneMatch: String? = nil
    /// Sent as `If-Modified-Since` (a Last-Modified from the cache).
    public var ifModifiedSince: String? = nil
    /// Addresses this request may not connect to, checked for every connection, redirects too.
    public var addressPolicy: AddressPolicy = .init()

    public init(url: String) {
        self.url = url
    }
}

/// The final response of a request (after redirects). 4xx and 5xx statuses are responses, not
/// failures; 304 has an empty body.
public struct LoadResponse: Sendable {
    public var status: Int
    public var body: [UInt8]
    /// The URL that answered, after redirects.
    public var effectiveURL: String
    public var contentType: String?
    public var etag: String?
    public var lastModified: String?
    /// `Retry-After` in seconds from now (delta-seconds or an HTTP-date).
    public var retryAfter: Double?
    /// The final response's headers, names lowercased; repeated headers joined with ", ".
    public var headers: [String: String]

    /// Builds a response by hand (the loader does this; so can a test double of it).
    public init(
        status: Int, body: [UInt8] = [], effectiveURL: String, contentType: String? = nil,
        etag: String? = nil, lastModified: String? = nil, retryAfter: Double? = nil,
        headers: [String: String] = [:]
    ) {
        self.status = status
        self.body = body
        self.effectiveURL = effectiveURL
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.retryAfter = retryAfter
        self.headers = headers
    }
}
