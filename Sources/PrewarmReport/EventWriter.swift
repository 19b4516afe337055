import Foundation
import PrewarmCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `--events`: NDJSON, one line per URL outcome as it happens.
///
/// Keys, in this order: `url`, `job`, `group`, `outcome`, `reason` (failures only), `status`
/// (when a request was answered), `attempts`, `bytes` (downloaded), `ms`, `path` (when set),
/// `variants` (name → cache file; omitted when empty), `detail` (failures only).
///
/// Thread-safe: each line is built outside the lock and appended whole under it, so lines never
/// interleave. Line-buffered for stdout (`| jq` sees each URL as it ends); for files, buffered and
/// flushed after `flushEveryLines` lines, at 64 KiB, or when a line arrives 100 ms or more after
/// the last flush, whichever comes first (checked on each write: no timer thread). `close()`
/// flushes the rest.
public final class EventWriter: Sendable {
    /// Where event bytes go.
    public enum Destination: Sendable {
        /// `-`: standard output, flushed after every line.
        case standardOutput
        /// A file, created or truncated.
        case file(String)
    }

    /// A failure to open or write the events destination.
    public struct EventWriteError: Error, Sendable, CustomStringConvertible {
        /// The message, naming the destination.
        public var description: String
    }

    private struct State: Sendable {
        var buffer: [UInt8] = []
        var linesBuffered = 0
        var lastFlush = ContinuousClock.now
        var closed = false
        var writeFailed = false
    }

    private let sink: @Sendable ([UInt8]) -> Bool
    private let closeSink: @Sendable () -> Void
    private let flushEachLine: Bool
    private let flushEveryLines: Int
    private let flushInterval = Duration.milliseconds(100)
    private let state = Mutex(State())

    /// Opens `destination`: `-` for stdout, anything else a file path (created or truncated).
    public convenience init(destination: String, flushEveryLines: Int = 256) throws(EventWriteError)
    {
        if destination == "-" {
            self.init(
                sink: { FileDescriptorOutput.writeAll(fd: 1, $0) }, flushEachLine: true,
                flushEveryLines: 1, onClose: {})
            return
        }
        let fd = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw EventWriteError(
                description: "\(destination): cannot open: \(AtomicFile.errnoMessage())")
        }
        self.init(
            sink: { FileDescriptorOutput.writeAll(fd: fd, $0) }, flushEachLine: false,
            flushEveryLines: flushEveryLines, onClose: { _ = Glibc.close(fd) })
    }

    /// Writes to any byte sink (tests capture lines this way). The sink returns false on a write
    /// error; later lines are then dropped rather than failing the run.
    public init(
        sink: @escaping @Sendable ([UInt8]) -> Bool, flushEachLine: Bool,
        flushEveryLines: Int = 256,
        onClose: @escaping @Sendable () -> Void = {}
    ) {
        self.sink = sink
        self.flushEachLine = flushEachLine
        self.flushEveryLines = max(1, flushEveryLines)
        self.closeSink = onClose
    }

    /// Writes one event line for `result`.
    public func write(_ result: URLResult) {
        var line = Array(Self.line(for: result).utf8)
        line.append(0x0A)
        state.withLock { state in
            guard !state.closed, !state.writeFailed else { return }
            state.buffer.append(contentsOf: line)
            state.linesBuffered += 1
            let now = ContinuousClock.now
            if flushEachLine || state.linesBuffered >= flushEveryLines
                || state.buffer.count >= 65536
                || now - state.lastFlush >= flushInterval
            {
                flushLocked(&state, now: now)
            }
        }
    }

    /// Writes out whatever is buffered.
    public func flush() {
        state.withLock { flushLocked(&$0, now: ContinuousClock.now) }
    }

    /// Flushes and closes; later writes are ignored. Safe to call twice.
    public func close() {
        let wasOpen = state.withLock { state in
            guard !state.closed else { return false }
            flushLocked(&state, now: ContinuousClock.now)
            state.closed = true
            return true
        }
        if wasOpen { closeSink() }
    }

    /// Whether a write to the destination failed (the CLI may warn once at the end).
    public var hadWriteError: Bool { state.withLock { $0.writeFailed } }

    // The write happens under the lock on purpose: that is what keeps lines whole and in order.
    private func flushLocked(_ state: inout State, now: ContinuousClock.Instant) {
        state.lastFlush = now
        state.linesBuffered = 0
        guard !state.buffer.isEmpty else { return }
        if !sink(state.buffer) { state.writeFailed = true }
        state.buffer.removeAll(keepingCapacity: true)
    }

    /// The JSON object (without newline) for one result.
    public static func line(for result: URLResult) -> String {
        var json = JSONObjectWriter()
        json.string("url", result.url)
        json.string("job", result.job)
        json.string("group", result.group)
        json.string("outcome", result.outcome.rawValue)
        if result.outcome == .failed {
            json.string("reason", result.reason?.code ?? "unknown")
        }
        if let status = result.status { json.int("status", Int64(status)) }
        json.int("attempts", Int64(result.attempts))
        json.int("bytes", result.bytesDownloaded)
        json.number("ms", result.milliseconds)
        if let path = result.path { json.string("path", path) }
        if !result.variants.isEmpty {
            json.object("variants", result.variants.map { ($0.name, $0.path) })
        }
        if result.outcome == .failed, let detail = result.detail { json.string("detail", detail) }
        return json.finished()
    }
}
