/// Requests waiting to start and the limits that decide when each may: connections per host, in
/// total, and starts per second per host.
///
/// The loader applies these limits itself instead of leaving queueing to curl, because curl counts
/// the time a transfer waits for a connection against its CURLOPT_TIMEOUT: with 50 URLs in flight
/// to one host and 6 connections, the last ones would time out without ever being sent.
struct StartQueue {
    struct Waiting {
        var id: UInt64
        var request: LoadRequest
        var host: String
    }

    private let perHost: Int
    private let total: Int
    /// Seconds between starts to one host; 0 = unlimited.
    private let interval: Double
    private var waiting: [Waiting] = []
    private var hostByActive: [UInt64: String] = [:]
    private var activeByHost: [String: Int] = [:]
    private var nextStartByHost: [String: Double] = [:]

    /// `perHost` and `total` of 0 mean unlimited; `rate` is starts per second per host, 0 = unlimited.
    init(perHost: Int, total: Int, rate: Double) {
        self.perHost = max(0, perHost)
        self.total = max(0, total)
        interval = rate > 0 && rate.isFinite ? 1 / rate : 0
    }

    var isEmpty: Bool { waiting.isEmpty }

    mutating func enqueue(id: UInt64, request: LoadRequest) {
        waiting.append(Waiting(id: id, request: request, host: StartQueue.host(of: request.url)))
    }

    /// Drops a request that has not started; false when it was not waiting.
    mutating func removeWaiting(id: UInt64) -> Bool {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return false }
        waiting.remove(at: index)
        return true
    }

    /// The waiting requests that may start now, in arrival order; they count as active from here.
    mutating func takeStartable(now: Double) -> [Waiting] {
        var started: [Waiting] = []
        var kept: [Waiting] = []
        for item in waiting {
            if mayStart(host: item.host, now: now) {
                hostByActive[item.id] = item.host
                activeByHost[item.host, default: 0] += 1
                if interval > 0 { nextStartByHost[item.host] = now + interval }
                started.append(item)
            } else {
                kept.append(item)
            }
        }
        waiting = kept
        return started
    }

    /// A started request ended (finished, failed or cancelled): its slot is free.
    mutating func finished(id: UInt64) {
        guard let host = hostByActive.removeValue(forKey: id) else { return }
        activeByHost[host, default: 1] -= 1
        if activeByHost[host] == 0 { activeByHost[host] = nil }
    }

    /// When a waiting request held back only by the rate may start; nil when none is.
    func nextRateLimitedStart(now: Double) -> Double? {
        waiting.lazy.filter { self.hasSlot(host: $0.host) }
            .compactMap { self.nextStartByHost[$0.host] }.min()
    }

    /// Removes every waiting request and returns their ids.
    mutating func removeAllWaiting() -> [UInt64] {
        defer { waiting = [] }
        return waiting.map(\.id)
    }

    private func hasSlot(host: String) -> Bool {
        if total > 0 && hostByActive.count >= total { return false }
        return perHost == 0 || activeByHost[host, default: 0] < perHost
    }

    private func mayStart(host: String, now: Double) -> Bool {
        guard hasSlot(host: host) else { return false }
        return (nextStartByHost[host] ?? now) <= now
    }

    /// The part of a URL limits apply to: `host[:port]`, lowercased, user info dropped.
    static func host(of url: String) -> String {
        var rest = Substring(url)
        if let schemeEnd = rest.range(of: "://") { rest = rest[schemeEnd.upperBound...] }
        let authority = rest.prefix(while: { $0 != "/" && $0 != "?" && $0 != "#" })
        let hostPart =
            authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
        return hostPart.lowercased()
    }
}
