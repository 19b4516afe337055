/// Spaces the starts of requests to one host `1 / rate` seconds apart. Each request reserves the
/// next free start time of its host, so a burst becomes an even stream instead of being refused.
struct HostRateLimiter {
    private let interval: Double
    private var nextAllowed: [String: Double] = [:]

    /// `rate` in requests per second per host; 0 (or less) means unlimited.
    init(rate: Double) {
        interval = rate > 0 && rate.isFinite ? 1 / rate : 0
    }

    /// The monotonic time at which a request to `host` may start, reserving that slot.
    mutating func reserveStart(host: String, now: Double) -> Double {
        guard interval > 0 else { return now }
        let start = max(now, nextAllowed[host] ?? now)
        nextAllowed[host] = start + interval
        return start
    }

    /// The host part of a URL (`host[:port]`, lowercased, user info dropped) that limits apply to.
    static func host(of url: String) -> String {
        var rest = Substring(url)
        if let schemeEnd = rest.range(of: "://") { rest = rest[schemeEnd.upperBound...] }
        let authority = rest.prefix(while: { $0 != "/" && $0 != "?" && $0 != "#" })
        let hostPart = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
        return hostPart.lowercased()
    }
}
