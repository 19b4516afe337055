import PrewarmCore

/// Why a request produced no response. HTTP error statuses are not here: they are responses.
public enum LoadFailureKind: Sendable, Hashable {
    case timeout, connect, dns, tls, tooManyRedirects, tooLarge, truncated, blockedAddress
    case invalidURL, cancelled, other
}

/// A request that produced no response.
public struct LoadError: Error, Sendable {
    public var kind: LoadFailureKind
    /// For people: curl's error text plus what to do about it. Never contains credentials.
    public var message: String
    /// The last HTTP status seen (e.g. a redirect's), if any response arrived.
    public var status: Int?
    /// Body bytes received before the failure.
    public var bytesReceived: Int64

    public init(
        kind: LoadFailureKind, message: String, status: Int? = nil, bytesReceived: Int64 = 0
    ) {
        self.kind = kind
        self.message = message
        self.status = status
        self.bytesReceived = bytesReceived
    }

    /// The report's failure reason; nil for `.cancelled`, which is an outcome, not a failure.
    /// `.other` (an unexpected curl error) counts as `connect`: transient, retried.
    public var failureReason: FailureReason? {
        switch kind {
        case .timeout: return .timeout
        case .connect, .other: return .connect
        case .dns: return .dns
        case .tls: return .tls
        case .tooManyRedirects: return .tooManyRedirects
        case .tooLarge: return .tooLarge
        case .truncated: return .truncated
        case .blockedAddress: return .blockedAddress
        case .invalidURL: return .invalidURL
        case .cancelled: return nil
        }
    }
}
