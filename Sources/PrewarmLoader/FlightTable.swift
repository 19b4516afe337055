import Synchronization

/// Requests in flight and the callers waiting for them. Identical requests (same `RequestKey`)
/// share one flight — one transfer — and every waiter gets its result.
final class FlightTable: Sendable {
    typealias Continuation = CheckedContinuation<Result<LoadResponse, LoadError>, Never>

    private struct State {
        var nextID: UInt64 = 1
        var flightByKey: [RequestKey: UInt64] = [:]
        var keyByFlight: [UInt64: RequestKey] = [:]
        var waitersByFlight: [UInt64: Set<UInt64>] = [:]
        var waiters: [UInt64: (flight: UInt64, continuation: Continuation)] = [:]

        mutating func makeID() -> UInt64 {
            defer { nextID += 1 }
            return nextID
        }
    }

    private let state = Mutex(State())

    /// Callers waiting now (tests use it to know every caller has joined).
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    func makeWaiterID() -> UInt64 {
        state.withLock { $0.makeID() }
    }

    /// Adds a waiter to the flight for `request`, starting a new flight (a transfer on `thread`)
    /// when none is in the air. Resumes at once with `.cancelled` when the loader is shut down.
    func join(
        waiter: UInt64, request: LoadRequest, continuation: Continuation, thread: LoaderThread
    ) {
        let key = RequestKey(request)
        let accepted: Bool = state.withLock { state in
            var flight = state.flightByKey[key]
            if flight == nil {
                let id = state.makeID()
                // Started under the lock so a racing `leave` cannot cancel it before it exists.
                guard thread.start(id: id, request: request) else { return false }
                state.flightByKey[key] = id
                state.keyByFlight[id] = key
                flight = id
            }
            state.waitersByFlight[flight!, default: []].insert(waiter)
            state.waiters[waiter] = (flight!, continuation)
            return true
        }
        if !accepted {
            continuation.resume(
                returning: .failure(
                    LoadError(kind: .cancelled, message: "the loader was shut down")))
        }
    }

    /// One caller stops waiting and gets `.cancelled`; the transfer is cancelled too when nobody
    /// else waits for it. Does nothing for a waiter that already got its result.
    func leave(waiter: UInt64, thread: LoaderThread) {
        let continuation: Continuation? = state.withLock { state in
            guard let (flight, continuation) = state.waiters.removeValue(forKey: waiter) else {
                return nil
            }
            state.waitersByFlight[flight]?.remove(waiter)
            if state.waitersByFlight[flight]?.isEmpty == true {
                state.waitersByFlight[flight] = nil
                if let key = state.keyByFlight.removeValue(forKey: flight) {
                    state.flightByKey[key] = nil
                }
                thread.cancel(id: flight)
            }
            return continuation
        }
        continuation?.resume(
            returning: .failure(LoadError(kind: .cancelled, message: "the request was cancelled")))
    }

    /// Hands a flight's result to all its waiters.
    func finish(flight: UInt64, with result: Result<LoadResponse, LoadError>) {
        let continuations: [Continuation] = state.withLock { state in
            if let key = state.keyByFlight.removeValue(forKey: flight) {
                state.flightByKey[key] = nil
            }
            let waiters = state.waitersByFlight.removeValue(forKey: flight) ?? []
            return waiters.compactMap { state.waiters.removeValue(forKey: $0)?.continuation }
        }
        for continuation in continuations { continuation.resume(returning: result) }
    }
}

/// What makes two requests the same fetch: everything that can change the response or whether it
/// is allowed.
struct RequestKey: Hashable, Sendable {
    var url: String
    var headers: [HTTPHeaderField]
    var credentials: Credentials?
    var ifNoneMatch: String?
    var ifModifiedSince: String?
    var useCookies: Bool
    var allowInvalidSSL: Bool
    var addressPolicy: AddressPolicy
    var maxBytes: Int64
    var maxRedirects: Int
    var timeout: Double
    var connectTimeout: Double

    init(_ request: LoadRequest) {
        url = request.url
        headers = request.headers
        credentials = request.credentials
        ifNoneMatch = request.ifNoneMatch
        ifModifiedSince = request.ifModifiedSince
        useCookies = request.useCookies
        allowInvalidSSL = request.allowInvalidSSL
        addressPolicy = request.addressPolicy
        maxBytes = request.maxBytes
        maxRedirects = request.maxRedirects
        timeout = request.timeout
        connectTimeout = request.connectTimeout
    }
}
