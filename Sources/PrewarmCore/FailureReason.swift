/// Why a URL failed. The `code` strings are stable: reports, events, metrics and the failed-URL
/// list all use them, and dashboards match on them.
public enum FailureReason: Hashable, Sendable {
    case http(Int)
    case timeout
    case connect
    case dns
    case tls
    case tooManyRedirects
    case tooLarge
    case truncated
    case notAnImage
    case unsupportedFormat
    case decode
    case tooManyPixels
    case invalidURL
    case blockedAddress
    case disk

    /// The stable string, e.g. `http_404`, `timeout`, `too_many_redirects`.
    public var code: String {
        switch self {
        case .http(let status): return "http_\(status)"
        case .timeout: return "timeout"
        case .connect: return "connect"
        case .dns: return "dns"
        case .tls: return "tls"
        case .tooManyRedirects: return "too_many_redirects"
        case .tooLarge: return "too_large"
        case .truncated: return "truncated"
        case .notAnImage: return "not_an_image"
        case .unsupportedFormat: return "unsupported_format"
        case .decode: return "decode"
        case .tooManyPixels: return "too_many_pixels"
        case .invalidURL: return "invalid_url"
        case .blockedAddress: return "blocked_address"
        case .disk: return "disk"
        }
    }

    /// Parses a stable string back (used when reading the failed-URL list and merging reports).
    public init?(code: String) {
        if code.hasPrefix("http_"), let status = Int(code.dropFirst(5)) {
            self = .http(status)
            return
        }
        let all: [FailureReason] = [
            .timeout, .connect, .dns, .tls, .tooManyRedirects, .tooLarge, .truncated, .notAnImage,
            .unsupportedFormat, .decode, .tooManyPixels, .invalidURL, .blockedAddress, .disk,
        ]
        guard let match = all.first(where: { $0.code == code }) else { return nil }
        self = match
    }

    /// Permanent failures are blacklisted for `failed_ttl`; the rest are transient: retried with
    /// backoff and never blacklisted. 408 (Request Timeout) and 429 (Too Many Requests) are 4xx
    /// statuses that say "try again later", so they are transient.
    public var isPermanent: Bool {
        switch self {
        case .http(let status): return (400...499).contains(status) && status != 408 && status != 429
        case .invalidURL, .notAnImage, .unsupportedFormat, .decode, .tooManyPixels, .tooLarge,
            .blockedAddress:
            return true
        case .timeout, .connect, .dns, .tls, .tooManyRedirects, .truncated, .disk:
            return false
        }
    }
}

extension FailureReason: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let code = try container.decode(String.self)
        guard let reason = FailureReason(code: code) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "unknown failure reason '\(code)'")
        }
        self = reason
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}
