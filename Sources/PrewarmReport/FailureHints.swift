/// What to do about each failure reason: one line, for the summary under the failure counts.
public enum FailureHints {
    /// The hint for a reason code (`http_404`, `timeout`, ...).
    public static func hint(for code: String) -> String {
        if code.hasPrefix("http_"), let status = Int(code.dropFirst(5)) { return httpHint(status) }
        switch code {
        case "timeout":
            return "raise timeout or lower concurrency/per_host"
        case "connect":
            return "the origin refused or dropped the connection; check host, port and firewall"
        case "dns":
            return "the host name does not resolve; check the URL and the resolver"
        case "tls":
            return "check the certificate; allow_invalid_ssl is for tests only"
        case "too_many_redirects":
            return "the URL redirects in a loop or too deep; use the final URL"
        case "too_large":
            return "the body is larger than max_bytes; raise max_bytes if it is legitimate"
        case "truncated":
            return "the connection ended before the body did; transient, retried on the next run"
        case "not_an_image":
            return
                "the origin sent something that is not an image (an HTML error page?); fix the URL"
        case "unsupported_format":
            return "prewarm decodes JPEG, PNG, GIF and WebP; serve one of those for this URL"
        case "decode":
            return "the image is corrupt or cut short at the origin; replace it there"
        case "too_many_pixels":
            return "the image is larger than max_pixels; raise max_pixels if it is legitimate"
        case "invalid_url":
            return "fix the URL in the manifest or url_file"
        case "blocked_address":
            return
                "the host resolves to a denied address (network.deny; link-local is always refused)"
        case "disk":
            return
                "free space or raise max_size so trimming keeps up; check the cache folder is writable"
        default:
            return "see the detail of the examples below"
        }
    }

    private static let blacklistNote =
        "it is blacklisted for failed_ttl — use retry_failed to try again"

    private static func httpHint(_ status: Int) -> String {
        switch status {
        case 404, 410:
            return "the origin has no such file; fix the URL or remove it; " + blacklistNote
        case 401, 403:
            return
                "the origin refuses access; check headers and auth (and their ${...} variables); "
                + blacklistNote
        case 408:
            return "the origin timed out waiting for the request; transient, retried next run"
        case 429:
            return "the origin is rate limiting; lower rate, per_host or concurrency"
        case 400..<500:
            return "the origin rejects the request; check the URL and headers; " + blacklistNote
        case 500..<600:
            return
                "the origin is failing; transient, not blacklisted — retry later or raise retries"
        default:
            return "unexpected HTTP status; check the origin"
        }
    }
}
