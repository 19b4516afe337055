import CCurl
import Foundation
import Synchronization

/// Owns the one libcurl multi handle and the thread that drives it with `curl_multi_poll`. Other
/// threads only post commands to the inbox and wake the poll with `curl_multi_wakeup`; everything
/// else (easy handles, rate slots, callbacks) happens on the loader thread, which never decodes and
/// never touches the disk.
final class LoaderThread: @unchecked Sendable {
    typealias Delivery = @Sendable (_ id: UInt64, _ result: Result<LoadResponse, LoadError>) -> Void

    private enum Command {
        case start(UInt64, LoadRequest)
        case cancel(UInt64)
    }

    private struct Inbox {
        var commands: [Command] = []
        var stopping = false
    }

    private let inbox = Mutex(Inbox())
    private let multi: UnsafeMutableRawPointer
    private let share: UnsafeMutableRawPointer
    private let configuration: LoaderConfiguration
    private let deliver: Delivery
    private let finished = DispatchGroup()
    private var thread: Thread?
    let counter = ByteCounter()
    /// Easy handles in the multi handle now (readable from any thread; tests check cancellation).
    let activeTransfers = Atomic<Int>(0)

    // Loader-thread state: touched only by `run()` and what it calls.
    private var transfers: [UInt64: Transfer] = [:]
    private var transferByHandle: [UnsafeMutableRawPointer: UInt64] = [:]
    private var queue: StartQueue

    private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    init(configuration: LoaderConfiguration, deliver: @escaping Delivery) throws(LoadError) {
        guard LoaderThread.globalInit, let multi = curl_multi_init() else {
            throw LoadError(
                kind: .other, message: "libcurl could not be initialised (curl_multi_init failed)")
        }
        guard let share = curl_share_init() else {
            curl_multi_cleanup(multi)
            throw LoadError(
                kind: .other, message: "libcurl could not be initialised (curl_share_init failed)")
        }
        self.multi = multi
        self.share = share
        self.configuration = configuration
        self.deliver = deliver
        queue = StartQueue(
            perHost: configuration.perHostConnections, total: configuration.maxTotalConnections,
            rate: configuration.perHostRate)
        // Only the loader thread uses the share handle, so it needs no lock callbacks. The multi
        // limits are a backstop: `queue` already keeps transfers within them (see StartQueue).
        _ = pw_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue))
        _ = pw_multi_setopt_long(
            multi, CURLMOPT_MAX_HOST_CONNECTIONS, max(0, configuration.perHostConnections))
        _ = pw_multi_setopt_long(
            multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, max(0, configuration.maxTotalConnections))

        finished.enter()
        let thread = Thread { [self] in
            run()
            finished.leave()
        }
        thread.name = "prewarm-loader"
        self.thread = thread
        thread.start()
    }

    // MARK: Any thread

    /// Queues a transfer; false when the loader is shut down.
    func start(id: UInt64, request: LoadRequest) -> Bool {
        post(.start(id, request))
    }

    func cancel(id: UInt64) {
        _ = post(.cancel(id))
    }

    /// Stops every transfer (each is delivered as cancelled) and waits for the thread to end.
    func shutdown() {
        inbox.withLock { inbox in
            guard !inbox.stopping else { return }
            inbox.stopping = true
            _ = curl_multi_wakeup(multi)
        }
        // The loader thread cannot wait for itself (a delivery could end up dropping the last reference).
        if Thread.current !== thread { finished.wait() }
    }

    private func post(_ command: Command) -> Bool {
        inbox.withLock { inbox in
            // Waking under the lock: the thread frees the multi handle only after it saw `stopping`.
            guard !inbox.stopping else { return false }
            inbox.commands.append(command)
            _ = curl_multi_wakeup(multi)
            return true
        }
    }

    // MARK: Loader thread

    private func run() {
        while true {
            let (commands, stopping) = inbox.withLock { inbox in
                defer { inbox.commands = [] }
                return (inbox.commands, inbox.stopping)
            }
            if stopping {
                tearDown(unstarted: commands)
                return
            }
            for command in commands { handle(command) }
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            collectFinished()
            // Added handles expire at once, so the poll below returns immediately to run them.
            startTransfers()
            _ = curl_multi_poll(multi, nil, 0, pollTimeout(), nil)
        }
    }

    private func handle(_ command: Command) {
        switch command {
        case .start(let id, let request):
            queue.enqueue(id: id, request: request)
        case .cancel(let id):
            if !queue.removeWaiting(id: id), let transfer = transfers.removeValue(forKey: id) {
                remove(transfer)
            }
        }
    }

    private func startTransfers() {
        guard !queue.isEmpty else { return }
        for item in queue.takeStartable(now: monotonicNow()) {
            guard
                let transfer = Transfer(
                    id: item.id, request: item.request, userAgent: configuration.userAgent,
                    share: share,
                    counter: counter)
            else {
                queue.finished(id: item.id)
                deliver(
                    item.id,
                    .failure(
                        LoadError(kind: .other, message: "libcurl could not create a transfer")))
                continue
            }
            let code = curl_multi_add_handle(multi, transfer.easy)
            guard code == CURLM_OK else {
                queue.finished(id: item.id)
                let text = String(cString: curl_multi_strerror(code))
                deliver(item.id, .failure(LoadError(kind: .other, message: "curl: \(text)")))
                continue
            }
            transfers[item.id] = transfer
            transferByHandle[transfer.easy] = item.id
            activeTransfers.add(1, ordering: .relaxed)
        }
    }

    private func collectFinished() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let id = transferByHandle[easy], let transfer = transfers.removeValue(forKey: id)
            else { continue }
            let result = transfer.outcome(code: pw_msg_result(message))
            remove(transfer)
            deliver(id, result)
        }
    }

    private func remove(_ transfer: Transfer) {
        _ = curl_multi_remove_handle(multi, transfer.easy)
        transferByHandle[transfer.easy] = nil
        queue.finished(id: transfer.id)
        activeTransfers.subtract(1, ordering: .relaxed)
        // `transfer` is released by the caller; its deinit cleans up the easy handle.
    }

    /// Milliseconds to sleep: until the next rate-limited start, at most a second (curl's own
    /// timers shorten it further; new commands and finished transfers wake it).
    private func pollTimeout() -> Int32 {
        let now = monotonicNow()
        guard let next = queue.nextRateLimitedStart(now: now) else { return 1000 }
        return Int32(max(0, min(1000, ((next - now) * 1000).rounded(.up))))
    }

    private func tearDown(unstarted commands: [Command]) {
        let cancelled = LoadError(kind: .cancelled, message: "the loader was shut down")
        var ids = transfers.keys.map { $0 } + queue.removeAllWaiting()
        for command in commands {
            if case .start(let id, _) = command { ids.append(id) }
        }
        for transfer in transfers.values { remove(transfer) }
        transfers = [:]
        for id in ids { deliver(id, .failure(cancelled)) }
        curl_multi_cleanup(multi)
        curl_share_cleanup(share)
    }

    private func monotonicNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
