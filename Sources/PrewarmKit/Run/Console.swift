import Foundation
import Synchronization

/// Where human output goes: stderr for people, stdout only for what was asked for (`--report -`,
/// `--events -`, `--dry-run`, `cache path`). Injectable so tests capture both.
public final class Console: Sendable {
    private let writeOut: @Sendable (String) -> Void
    private let writeError: @Sendable (String) -> Void

    public init(
        out: @escaping @Sendable (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) },
        error: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.writeOut = out
        self.writeError = error
    }

    /// Writes a line to stdout.
    public func out(_ text: String) { writeOut(text.hasSuffix("\n") ? text : text + "\n") }
    /// Writes a line to stderr.
    public func error(_ text: String) { writeError(text.hasSuffix("\n") ? text : text + "\n") }

    /// A console that collects everything, for tests.
    public static func capturing() -> (Console, CapturedOutput) {
        let captured = CapturedOutput()
        return (Console(out: { captured.append(out: $0) }, error: { captured.append(error: $0) }), captured)
    }
}

/// What a capturing console collected.
public final class CapturedOutput: Sendable {
    private let state = Mutex<(out: String, error: String)>(("", ""))
    public var out: String { state.withLock { $0.out } }
    public var error: String { state.withLock { $0.error } }
    func append(out text: String) { state.withLock { $0.out += text } }
    func append(error text: String) { state.withLock { $0.error += text } }
}
