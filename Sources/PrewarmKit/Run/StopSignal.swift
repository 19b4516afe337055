import Dispatch
import Glibc
import Synchronization

/// Why a run stopped early; decides the exit code.
public enum StopReason: Sendable, Equatable {
    /// SIGINT (130) or SIGTERM (143).
    case signal(Int32)
    /// A fatal environment error (exit 3): disk full, cache not writable.
    case fatal(String)

    var isSignal: Bool {
        if case .signal = self { return true }
        return false
    }

    var exitCode: Int32 {
        switch self {
        case .signal(let number): return 128 + number
        case .fatal: return 3
        }
    }
}

/// The first reason to stop wins; later ones are ignored. Whoever sets it also cancels the run's
/// task, so in-flight transfers and backoff sleeps end at once.
final class StopSignal: Sendable {
    private let state = Mutex<(reason: StopReason?, onStop: (@Sendable () -> Void)?)>((nil, nil))
    /// Kept alive for the run: dispatch sources stop delivering when released. Written once by
    /// `watchSignals()` before any signal can arrive, read only in deinit.
    nonisolated(unsafe) private var sources: [any DispatchSourceSignal] = []

    var reason: StopReason? { state.withLock { $0.reason } }

    /// Sets what to do on the first stop (cancel the run task).
    func onStop(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.onStop = action }
    }

    func stop(_ reason: StopReason) {
        let action: (@Sendable () -> Void)? = state.withLock { state in
            guard state.reason == nil else { return nil }
            state.reason = reason
            return state.onStop
        }
        action?()
    }

    /// Turns SIGINT and SIGTERM into stops. The default handlers are replaced, so a second
    /// Ctrl-C is also handled cleanly instead of killing the process mid-write.
    func watchSignals() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.stop(.signal(number)) }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
