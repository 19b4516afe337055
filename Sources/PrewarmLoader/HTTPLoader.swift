/// Fetches URLs over http and https with libcurl: one multi handle on one thread for the whole run,
/// so connections, per-host limits, the request rate and cookies are shared by every request.
/// Identical requests in flight are fetched once and every caller gets the same response.
public final class HTTPLoader: Sendable {
    private let flights: FlightTable
    private let thread: LoaderThread

    /// Starts the loader thread. Throws a `LoadError` when libcurl cannot be initialised.
    public init(configuration: LoaderConfiguration = .init()) throws {
        let flights = FlightTable()
        self.flights = flights
        thread = try LoaderThread(configuration: configuration) { flight, result in
            flights.finish(flight: flight, with: result)
        }
    }

    deinit {
        shutdown()
    }

    /// Body bytes received so far by every request, for progress displays.
    public var totalBytesReceived: Int64 {
        thread.counter.total.load(ordering: .relaxed)
    }

    /// Callers waiting for a result now.
    var waitingCallers: Int { flights.waiterCount }

    /// Transfers in curl's hands now.
    var activeTransfers: Int { thread.activeTransfers.load(ordering: .relaxed) }

    /// Fetches one request. HTTP error statuses come back as responses; failures to get any
    /// response come back as `LoadError`. Cancelling the calling task stops the transfer (unless
    /// another caller still waits for the same request) and returns `.cancelled` promptly.
    public func load(_ request: LoadRequest) async -> Result<LoadResponse, LoadError> {
        let waiter = flights.makeWaiterID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: FlightTable.Continuation) in
                flights.join(
                    waiter: waiter, request: request, continuation: continuation, thread: thread)
                // A cancellation that came before `join` found nothing to cancel; catch it here.
                if Task.isCancelled { flights.leave(waiter: waiter, thread: thread) }
            }
        } onCancel: {
            flights.leave(waiter: waiter, thread: thread)
        }
    }

    /// Cancels every request (each returns `.cancelled`) and stops the loader thread, waiting for
    /// it to end. Idempotent; `deinit` calls it.
    public func shutdown() {
        thread.shutdown()
    }
}
