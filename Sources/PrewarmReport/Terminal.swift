import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What progress and summary output need to know about stderr (also handy for the CLI).
public enum Terminal {
    /// Whether standard error is a terminal.
    public static var standardErrorIsTerminal: Bool { isatty(2) != 0 }

    /// The terminal's width in columns, or 80 when it cannot be told (not a terminal, or 0).
    public static func width(fd: Int32 = 2) -> Int {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Colour follows https://no-color.org: off when `NO_COLOR` is set to anything non-empty.
    public static func colorAllowed(isTerminal: Bool, environment: [String: String]) -> Bool {
        isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// Writes text to standard error, whole.
    public static func writeToStandardError(_ text: String) {
        _ = FileDescriptorOutput.writeAll(fd: 2, Array(text.utf8))
    }
}
