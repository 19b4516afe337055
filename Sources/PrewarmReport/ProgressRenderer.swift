import Dispatch
import Foundation
import Synchronization

/// `--progress auto|bar|plain|none`: how progress is shown on stderr.
public enum ProgressMode: String, Sendable, CaseIterable {
    /// `bar` when stderr is a terminal, `plain` otherwise.
    case auto
    /// One line redrawn in place (`\r` + clear to end of line), about 10 times a second.
    case bar
    /// A new line every few seconds, only when something changed (logs, CI).
    case plain
    /// Nothing.
    case none
}

/// Draws run progress from a timer, never once per URL, so a million fast cache hits cost no
/// terminal writes beyond ~10 per second.
///
/// The renderer pulls counts from a `RunProgress` source (usually `RunRecorder.progress`) when the
/// timer fires. Call `start()` when the run starts and `finish()` before printing the summary:
/// it stops the timer and clears the live line.
public final class ProgressRenderer: Sendable {
    /// The style actually used once `auto` is resolved.
    public enum Style: Sendable, Hashable {
        /// Redrawn line.
        case bar
        /// Periodic lines.
        case plain
        /// Silent.
        case none
    }

    /// The resolved style.
    public let style: Style
    /// Whether lines carry ANSI colour (only on a terminal, and never with `NO_COLOR` set).
    public let usesColor: Bool

    private let source: @Sendable () -> RunProgress
    private let sink: @Sendable (String) -> Void
    private let width: @Sendable () -> Int
    private let interval: Double
    private let timer = Mutex<DispatchSourceTimer?>(nil)
    private let lastDrawn = Mutex<Totals?>(nil)
    private let queue = DispatchQueue(label: "prewarm.progress")

    /// Creates a renderer.
    /// - Parameters:
    ///   - mode: the `--progress` value.
    ///   - source: where counts come from, e.g. `recorder.progress`.
    ///   - sink: where text goes; stderr by default (tests pass a capture).
    ///   - isTerminal: whether the sink is a terminal; by default `isatty(2)`.
    ///   - environment: for `NO_COLOR`; the process environment by default.
    ///   - plainInterval: seconds between plain lines (5 by default).
    ///   - redrawInterval: seconds between bar redraws (0.1 by default).
    ///   - terminalWidth: columns; by default asked of stderr (TIOCGWINSZ), 80 if unknown.
    public init(
        mode: ProgressMode,
        source: @escaping @Sendable () -> RunProgress,
        sink: @escaping @Sendable (String) -> Void = { Terminal.writeToStandardError($0) },
        isTerminal: Bool = Terminal.standardErrorIsTerminal,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        plainInterval: Double = 5,
        redrawInterval: Double = 0.1,
        terminalWidth: (@Sendable () -> Int)? = nil
    ) {
        switch mode {
        case .auto: style = isTerminal ? .bar : .plain
        case .bar: style = .bar
        case .plain: style = .plain
        case .none: style = .none
        }
        usesColor =
            style != .none
            && Terminal.colorAllowed(isTerminal: isTerminal, environment: environment)
        self.source = source
        self.sink = sink
        self.width = terminalWidth ?? { Terminal.width() }
        self.interval = style == .bar ? redrawInterval : plainInterval
    }

    /// A renderer that reads `recorder`'s progress.
    public convenience init(
        mode: ProgressMode, recorder: RunRecorder,
        sink: @escaping @Sendable (String) -> Void = { Terminal.writeToStandardError($0) },
        isTerminal: Bool = Terminal.standardErrorIsTerminal,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        plainInterval: Double = 5
    ) {
        self.init(
            mode: mode, source: { recorder.progress() }, sink: sink, isTerminal: isTerminal,
            environment: environment, plainInterval: plainInterval)
    }

    deinit {
        // A resumed timer must not outlive its renderer.
        timer.withLock { $0?.cancel() }
    }

    /// Starts the timer. Does nothing for `none`, or when already started.
    public func start() {
        guard style != .none else { return }
        timer.withLock { current in
            guard current == nil else { return }
            let source = DispatchSource.makeTimerSource(queue: queue)
            let nanoseconds = Int((interval * 1e9).rounded())
            source.schedule(
                deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
                leeway: .nanoseconds(nanoseconds / 10))
            source.setEventHandler { [weak self] in self?.render() }
            source.resume()
            current = source
        }
    }

    /// Draws once now (the timer calls this; tests call it directly). Plain lines are skipped
    /// when nothing changed since the last one.
    public func render() {
        guard style != .none else { return }
        let progress = source()
        switch style {
        case .bar:
            let text = ProgressLine.render(
                ProgressLine.segments(progress), width: max(1, width() - 1), color: usesColor)
            sink("\r" + text + "\u{1B}[K")
            lastDrawn.withLock { $0 = progress.totals }
        case .plain:
            let changed = lastDrawn.withLock { last in
                defer { last = progress.totals }
                return last != progress.totals
            }
            guard changed else { return }
            let text = ProgressLine.render(
                ProgressLine.segments(progress), width: nil, color: usesColor)
            sink("prewarm: " + text + "\n")
        case .none:
            break
        }
    }

    /// Stops the timer and, for `bar`, clears the live line so the summary starts clean.
    public func finish() {
        let source = timer.withLock { current in
            defer { current = nil }
            return current
        }
        source?.cancel()
        // Wait for a render already running on the queue, so nothing is drawn after the clear.
        queue.sync {}
        if style == .bar, lastDrawn.withLock({ $0 != nil }) { sink("\r\u{1B}[K") }
    }
}
