/// Just enough JSON writing for one NDJSON line per URL: fast, fixed key order, no Foundation
/// encoder per line (a run may write millions of lines).
struct JSONObjectWriter {
    private(set) var text = "{"
    private var first = true

    mutating func key(_ name: String) {
        if !first { text += "," }
        first = false
        JSONObjectWriter.appendString(name, to: &text)
        text += ":"
    }

    mutating func string(_ name: String, _ value: String) {
        key(name)
        JSONObjectWriter.appendString(value, to: &text)
    }

    mutating func int(_ name: String, _ value: Int64) {
        key(name)
        text += String(value)
    }

    /// Milliseconds rounded to microseconds; non-finite values (never expected) become 0 since
    /// JSON has no NaN.
    mutating func number(_ name: String, _ value: Double) {
        key(name)
        let rounded = value.isFinite ? (value * 1000).rounded() / 1000 : 0
        if rounded == rounded.rounded(), abs(rounded) < 1e15 {
            text += String(Int64(rounded))
        } else {
            text += String(rounded)
        }
    }

    mutating func object(_ name: String, _ pairs: [(String, String)]) {
        key(name)
        var inner = JSONObjectWriter()
        for (k, v) in pairs { inner.string(k, v) }
        text += inner.finished()
    }

    func finished() -> String { text + "}" }

    /// A JSON string literal: quotes, backslashes and control characters escaped; `/` left alone.
    static func appendString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case let c where c.value < 0x20 || c.value == 0x2028 || c.value == 0x2029:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
