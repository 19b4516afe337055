// A small, real, fault-injecting HTTP/1.1 origin on 127.0.0.1, for integration tests and the demo.
import Foundation
import Glibc

/// An HTTP/1.1 server on 127.0.0.1 that serves files and injects faults on request.
///
/// Routes (chosen by path, so a manifest can point at them directly):
/// - `GET|HEAD /files/<path>`: a file from `root` or from `setFile`, with Content-Type by extension,
///   `ETag`, `Last-Modified`, and 304 answers to `If-None-Match` / `If-Modified-Since`.
///   Fault query parameters (they combine): `fail=N&status=S&retry_after=T`, `delay_ms=M`, `stall=1`,
///   `truncate=N`, `reset=1`, `drip_ms=M`, `chunked=1`, `no_etag=1`, and `first=N` (delay, stall,
///   truncate, reset and drip hit only the first N requests for that exact target).
/// - `/status/<code>[?retry_after=T]`, `/html`, `/redirect?to=<url>`, `/loop/<n>`,
///   `/bytes/<n>[?no_length=1]`, `/echo-headers`, `/set-cookie?k=v`, `/need-cookie/<path>`.
///
/// One thread per connection; connections are kept alive. `stop()` ends everything promptly.
public final class TestOrigin: Sendable {
    /// The bound port.
    public let port: Int
    private let listener: Int32
    private let state = OriginState()
    private let files: FileStore

    /// Binds 127.0.0.1 on `port` (0 = a free port) and starts serving. `root` is the folder served under /files/.
    public init(root: String? = nil, port: Int = 0) throws {
        let (listener, boundPort) = try Socket.listenOnLoopback(port: port)
        self.listener = listener
        self.port = boundPort
        self.files = FileStore(root: root)
        let router = Router(files: files, state: state)
        let state = self.state
        // The threads hold only the shared state, never `self`, so dropping the origin runs deinit (and stop()).
        let acceptor = Thread {
            while let fd = Socket.accept(on: listener) {
                guard state.register(connection: fd) else {
                    close(fd)
                    continue
                }
                let worker = Thread {
                    var connection = Connection(fd: fd, router: router, state: state)
                    connection.run()
                }
                worker.stackSize = 256 * 1024
                worker.start()
            }
            close(listener)
            state.acceptorFinished()
        }
        acceptor.name = "TestOrigin accept :\(boundPort)"
        acceptor.start()
    }

    deinit { stop() }

    /// "http://127.0.0.1:PORT"
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Closes the listener and every connection, releases held requests, and waits briefly for the threads to end.
    /// Safe to call more than once.
    public func stop() { state.stop(listener: listener) }

    /// Requests received since start (or the last `resetCounters()`).
    public var totalRequests: Int { state.totalRequests }

    /// Requests whose request-target (path + query, exactly as sent) equals `path`.
    public func requestCount(path: String) -> Int { state.requestCount(target: path) }

    /// The most requests in flight at once: from the request head being read until the reply is written or the connection drops.
    public var maxConcurrentRequests: Int { state.maxConcurrentRequests }

    /// Requests in flight now.
    public var currentConcurrentRequests: Int { state.currentRequests }

    /// Every request received, in arrival order.
    public func recordedRequests() -> [RecordedRequest] { state.recordedRequests }

    /// Forgets counts, recordings and the high-water mark. `fail=N` counting restarts too, since it counts requests per target.
    public func resetCounters() { state.resetCounters() }

    /// Replaces (or adds) what /files/<relativePath> serves, in memory, with a new ETag and a later Last-Modified.
    public func setFile(_ relativePath: String, contents: [UInt8]) { files.setFile(relativePath, contents: contents) }

    /// Blocks every request whose target contains `marker` until `release(marker:)` (or `stop()`).
    public func hold(marker: String) { state.hold(marker: marker) }

    /// Lets the requests held by `marker` go on; new ones are no longer held.
    public func release(marker: String) { state.release(marker: marker) }

    /// Waits until at least `count` requests are held; false on timeout (seconds).
    public func waitForHeld(count: Int, timeout: Double) -> Bool { state.waitForHeld(count: count, timeout: timeout) }
}
