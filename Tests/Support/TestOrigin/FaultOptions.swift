// The fault query parameters understood on /files/ paths.

/// Faults requested by a /files/ URL's query. Several may combine.
struct FaultOptions: Sendable {
    /// `fail=N`: the first N requests for this exact target answer `failStatus`.
    var failCount = 0
    /// `status=S` (default 503).
    var failStatus = 503
    /// `retry_after=T`: Retry-After value on the failing answers.
    var retryAfter: String?
    /// `delay_ms=M`: wait before sending anything.
    var delayMilliseconds = 0
    /// `stall=1`: headers and half the body, then silence.
    var stall = false
    /// `truncate=N`: full Content-Length, only N body bytes, then close.
    var truncateAt: Int?
    /// `reset=1`: close with RST without answering.
    var reset = false
    /// `drip_ms=M`: body in 1 KiB pieces, M ms apart.
    var dripMilliseconds: Int?
    /// `chunked=1`: Transfer-Encoding: chunked.
    var chunked = false
    /// `no_etag=1`: no ETag and no Last-Modified.
    var omitValidators = false
    /// `first=N`: delay/stall/truncate/reset/drip apply only to the first N requests for this target,
    /// so a test can see a retry succeed after a transport fault.
    var transportFaultLimit: Int?

    init(query: [String: String]) {
        func flag(_ name: String) -> Bool { query[name].map { $0 != "0" && $0 != "false" } ?? false }
        failCount = query["fail"].flatMap(Int.init) ?? 0
        failStatus = query["status"].flatMap(Int.init) ?? 503
        retryAfter = query["retry_after"]
        delayMilliseconds = query["delay_ms"].flatMap(Int.init) ?? 0
        stall = flag("stall")
        truncateAt = query["truncate"].flatMap(Int.init)
        reset = flag("reset")
        dripMilliseconds = query["drip_ms"].flatMap(Int.init)
        chunked = flag("chunked")
        omitValidators = flag("no_etag")
        transportFaultLimit = query["first"].flatMap(Int.init)
    }

    /// Whether the request with this ordinal (1-based, per target) gets the transport faults.
    func appliesTransportFaults(toOrdinal ordinal: Int) -> Bool {
        transportFaultLimit.map { ordinal <= $0 } ?? true
    }

    /// Applies delivery faults to a successful answer.
    func apply(to response: inout HTTPResponse, ordinal: Int) {
        response.chunked = chunked
        guard appliesTransportFaults(toOrdinal: ordinal) else { return }
        if stall {
            response.delivery = .stallAtHalf
        } else if let truncateAt {
            response.delivery = .truncate(max(0, truncateAt))
        } else if let dripMilliseconds {
            response.delivery = .drip(milliseconds: max(0, dripMilliseconds))
        }
    }
}
