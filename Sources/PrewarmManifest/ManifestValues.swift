/// Parsers for the manifest's value syntaxes. Public so the CLI parses its flags the same way.
public enum ManifestValues {
    /// A duration in seconds: a number followed by `ms`, `s`, `m`, `h` or `d` (`500ms`, `1.5s`,
    /// `7d`), several of them in a row (`1h30m`), or a bare number of seconds (`15`).
    /// Returns nil for anything else, and for negative or non-finite values.
    public static func duration(_ text: String) -> Double? {
        var scanner = NumberScanner(text)
        if let bare = scanner.wholeTextAsNumber() { return bare >= 0 ? bare : nil }
        var total = 0.0
        var sawPart = false
        while !scanner.isAtEnd {
            guard let number = scanner.number(), let unit = scanner.letters() else { return nil }
            let scale: Double
            switch unit {
            case "ms": scale = 0.001
            case "s": scale = 1
            case "m": scale = 60
            case "h": scale = 3_600
            case "d": scale = 86_400
            default: return nil
            }
            total += number * scale
            sawPart = true
        }
        return sawPart && total.isFinite ? total : nil
    }

    /// A size in bytes: a number with an optional unit `B`, `KB` `MB` `GB` `TB` (powers of 1000) or
    /// `KiB` `MiB` `GiB` `TiB` (powers of 1024), case-insensitive; a bare integer is bytes.
    /// Fractions are allowed with a unit (`1.5GiB`) and rounded down to whole bytes.
    public static func byteSize(_ text: String) -> Int64? {
        var scanner = NumberScanner(text)
        guard let number = scanner.number() else { return nil }
        let unit = scanner.letters()?.lowercased() ?? ""
        guard scanner.isAtEnd else { return nil }
        let scale: Double
        switch unit {
        case "": guard number == number.rounded(.down) else { return nil }; scale = 1
        case "b": scale = 1
        case "kb": scale = 1e3
        case "mb": scale = 1e6
        case "gb": scale = 1e9
        case "tb": scale = 1e12
        case "kib": scale = 1_024
        case "mib": scale = 1_048_576
        case "gib": scale = 1_073_741_824
        case "tib": scale = 1_099_511_627_776
        default: return nil
        }
        return wholeNumber(number * scale)
    }

    /// A pixel count: a bare integer, or a number with `K` (10^3), `M` (10^6) or `G` (10^9),
    /// optionally followed by `P` for pixels (`100M`, `16.7MP`).
    public static func pixelCount(_ text: String) -> Int64? {
        var scanner = NumberScanner(text)
        guard let number = scanner.number() else { return nil }
        var unit = scanner.letters()?.uppercased() ?? ""
        guard scanner.isAtEnd else { return nil }
        if unit.count == 2 && unit.hasSuffix("P") { unit.removeLast() }
        let scale: Double
        switch unit {
        case "": guard number == number.rounded(.down) else { return nil }; scale = 1
        case "K": scale = 1e3
        case "M": scale = 1e6
        case "G": scale = 1e9
        default: return nil
        }
        return wholeNumber(number * scale)
    }

    private static func wholeNumber(_ value: Double) -> Int64? {
        guard value.isFinite, value >= 0, value < 9.2e18 else { return nil }
        return Int64(value.rounded(.down))
    }
}

/// Reads `12`, `1.5`, `.5` followed by a unit made of letters, over UTF-8 bytes. Whitespace between
/// a number and its unit is allowed (`20 GiB`); surrounding whitespace is ignored.
private struct NumberScanner {
    private let bytes: [UInt8]
    private var index: Int

    init(_ text: String) {
        var bytes = Array(text.utf8)
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        self.bytes = bytes
        index = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) ?? bytes.count
    }

    var isAtEnd: Bool { index == bytes.count }

    /// The whole text as a plain non-negative number, when it is one.
    func wholeTextAsNumber() -> Double? {
        var copy = self
        guard let value = copy.number(), copy.isAtEnd else { return nil }
        return value
    }

    /// An unsigned decimal number with an optional fraction.
    mutating func number() -> Double? {
        let start = index
        var digits = 0
        while index < bytes.count, isDigit(bytes[index]) { index += 1; digits += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, isDigit(bytes[index]) { index += 1; digits += 1 }
        }
        guard digits > 0 else { index = start; return nil }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        while index < bytes.count, bytes[index] == 0x20 { index += 1 }
        return Double(text)
    }

    /// A run of ASCII letters, or nil when there is none.
    mutating func letters() -> String? {
        let start = index
        while index < bytes.count, isLetter(bytes[index]) { index += 1 }
        guard index > start else { return nil }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
}
