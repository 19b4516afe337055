// Everything the serving threads share: counters, holds, open connections and the stop flag.
import Foundation
import Glibc
import Synchronization

/// Shared state of one running origin. All fields live in one Mutex; `wakeUp` only signals changes,
/// so waiters re-check the state under the Mutex and no wake-up can be lost.
final class OriginState: Sendable {
    private struct Fields {
        var totalRequests = 0
        var requestsByTarget: [String: Int] = [:]
        var recorded: [RecordedRequest] = []
        var currentRequests = 0
        var maxConcurrentRequests = 0
        var holdMarkers: Set<String> = []
        var heldRequests = 0
        var issuedCookies: Set<String> = []
        var openConnections: Set<Int32> = []
        var acceptorRunning = true
        var stopped = false
    }

    private let fields = Mutex(Fields())
    /// Broadcast after every change a waiter may care about. Waiters hold its lock while checking.
    private let wakeUp = NSCondition()

    var isStopped: Bool { fields.withLock { $0.stopped } }

    // MARK: Counters

    /// Counts and records a request and marks it in flight; returns its 1-based ordinal among requests for the same target.
    func beginRequest(_ request: HTTPRequest) -> Int {
        let record = RecordedRequest(method: request.method, target: request.target, headers: request.headerDictionary)
        return fields.withLock { state in
            state.totalRequests += 1
            let ordinal = state.requestsByTarget[request.target, default: 0] + 1
            state.requestsByTarget[request.target] = ordinal
            state.recorded.append(record)
            state.currentRequests += 1
            state.maxConcurrentRequests = max(state.maxConcurrentRequests, state.currentRequests)
            return ordinal
        }
    }

    /// Marks a request as no longer in flight (answered or dropped).
    func endRequest() {
        fields.withLock { $0.currentRequests -= 1 }
    }

    var totalRequests: Int { fields.withLock { $0.totalRequests } }
    func requestCount(target: String) -> Int { fields.withLock { $0.requestsByTarget[target, default: 0] } }
    var maxConcurrentRequests: Int { fields.withLock { $0.maxConcurrentRequests } }
    var currentRequests: Int { fields.withLock { $0.currentRequests } }
    var recordedRequests: [RecordedRequest] { fields.withLock { $0.recorded } }

    /// Forgets counts and recordings. The high-water mark restarts from the requests in flight now.
    func resetCounters() {
        fields.withLock { state in
            state.totalRequests = 0
            state.requestsByTarget = [:]
            state.recorded = []
            state.maxConcurrentRequests = state.currentRequests
        }
    }

    // MARK: Cookies

    func issueCookie(_ pair: String) { fields.withLock { _ = $0.issuedCookies.insert(pair) } }
    func wasIssued(cookie pair: String) -> Bool { fields.withLock { $0.issuedCookies.contains(pair) } }

    // MARK: Holds

    func hold(marker: String) {
        fields.withLock { _ = $0.holdMarkers.insert(marker) }
        signal()
    }

    func release(marker: String) {
        fields.withLock { _ = $0.holdMarkers.remove(marker) }
        signal()
    }

    /// Blocks while any hold marker is contained in `target` (and the origin runs).
    func waitWhileHeld(target: String) {
        func isHeld(_ state: Fields) -> Bool {
            !state.stopped && state.holdMarkers.contains { target.contains($0) }
        }
        guard fields.withLock({ isHeld($0) }) else { return }
        fields.withLock { $0.heldRequests += 1 }
        signal()
        wakeUp.lock()
        while fields.withLock({ isHeld($0) }) { wakeUp.wait() }
        wakeUp.unlock()
        fields.withLock { $0.heldRequests -= 1 }
        signal()
    }

    /// Waits until at least `count` requests are held; false on timeout.
    func waitForHeld(count: Int, timeout: Double) -> Bool {
        wait(timeout: timeout) { $0.heldRequests >= count }
    }

    // MARK: Sleeping that stop() can cut short

    /// Sleeps for `milliseconds`; returns false (early) if the origin stops meanwhile.
    func sleep(milliseconds: Int) -> Bool {
        guard milliseconds > 0 else { return !isStopped }
        _ = wait(timeout: Double(milliseconds) / 1000) { $0.stopped }
        return !isStopped
    }

    // MARK: Connections and stopping

    /// Tracks an accepted connection so stop() can shut it down; false if the origin already stopped.
    func register(connection fd: Int32) -> Bool {
        fields.withLock { state in
            guard !state.stopped else { return false }
            state.openConnections.insert(fd)
            return true
        }
    }

    /// Stops tracking a connection and closes it. Removal and close happen under the lock so that
    /// stop() never shuts down a descriptor number that was reused meanwhile.
    func closeConnection(_ fd: Int32, abortive: Bool = false) {
        fields.withLock { state in
            state.openConnections.remove(fd)
            if abortive { Socket.setAbortiveClose(fd) }
            close(fd)
        }
        signal()
    }

    func acceptorFinished() {
        fields.withLock { $0.acceptorRunning = false }
        signal()
    }

    /// Wakes every blocked thread, shuts down the listener and every connection, and waits (bounded) for them to finish.
    func stop(listener: Int32) {
        let firstStop = fields.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.stopped = true
            // shutdown() (not close()) so blocked accept/recv/send calls return and their threads close their own descriptors.
            shutdown(listener, Int32(SHUT_RDWR))
            for fd in state.openConnections { shutdown(fd, Int32(SHUT_RDWR)) }
            return true
        }
        signal()
        guard firstStop else { return }
        _ = wait(timeout: 5) { !$0.acceptorRunning && $0.openConnections.isEmpty }
    }

    // MARK: Waiting

    private func signal() {
        wakeUp.lock()
        wakeUp.broadcast()
        wakeUp.unlock()
    }

    private func wait(timeout: Double, until condition: (Fields) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        wakeUp.lock()
        defer { wakeUp.unlock() }
        while !fields.withLock({ condition($0) }) {
            if !wakeUp.wait(until: deadline) { return fields.withLock { condition($0) } }
        }
        return true
    }
}
