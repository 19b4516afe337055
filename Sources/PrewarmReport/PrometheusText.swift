import Foundation

/// Writing and reading the Prometheus text exposition format (version 0.0.4), as far as prewarm
/// needs: its own metric lines and the `last_success` value of a previous file.
enum PrometheusText {
    /// One sample: `name{label="value",...} value`.
    struct Sample {
        var name: String
        var labels: [(String, String)]
        var value: Double

        func label(_ key: String) -> String? { labels.first { $0.0 == key }?.1 }
    }

    /// A label value escaped as the format requires: `\` → `\\`, `"` → `\"`, newline → `\n`.
    static func escapeLabelValue(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for character in value.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// `name{a="x",b="y"} value`.
    static func line(_ name: String, _ labels: [(String, String)], _ value: String) -> String {
        guard !labels.isEmpty else { return "\(name) \(value)" }
        let text = labels.map { "\($0.0)=\"\(escapeLabelValue($0.1))\"" }.joined(separator: ",")
        return "\(name){\(text)} \(value)"
    }

    /// A sample value: integers without a fraction, others with millisecond precision.
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.3f", value)
    }

    /// Parses the sample lines of a file; comments, blank lines and lines it cannot read are
    /// skipped (the file may have been edited by hand; a bad line must not stop a run).
    static func parseSamples(_ text: String) -> [Sample] {
        text.split(separator: "\n", omittingEmptySubsequences: true).compactMap {
            parseLine(Substring($0))
        }
    }

    static func parseLine(_ line: Substring) -> Sample? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard let firstChar = trimmed.first, firstChar != "#" else { return nil }
        var scalars = Array(trimmed.unicodeScalars)[...]
        var name = ""
        while let c = scalars.first, c != "{", c != " ", c != "\t" {
            name.unicodeScalars.append(c)
            scalars = scalars.dropFirst()
        }
        guard !name.isEmpty else { return nil }
        var labels: [(String, String)] = []
        if scalars.first == "{" {
            scalars = scalars.dropFirst()
            while true {
                while scalars.first == " " || scalars.first == "," { scalars = scalars.dropFirst() }
                if scalars.first == "}" {
                    scalars = scalars.dropFirst()
                    break
                }
                var key = ""
                while let c = scalars.first, c != "=" {
                    key.unicodeScalars.append(c)
                    scalars = scalars.dropFirst()
                }
                guard scalars.first == "=", scalars.dropFirst().first == "\"" else { return nil }
                scalars = scalars.dropFirst(2)
                var value = ""
                var closed = false
                while let c = scalars.first {
                    scalars = scalars.dropFirst()
                    if c == "\"" {
                        closed = true
                        break
                    }
                    if c == "\\", let next = scalars.first {
                        scalars = scalars.dropFirst()
                        switch next {
                        case "n": value += "\n"
                        case "\\": value += "\\"
                        case "\"": value += "\""
                        default: value.unicodeScalars.append(contentsOf: ["\\", next])
                        }
                    } else {
                        value.unicodeScalars.append(c)
                    }
                }
                guard closed else { return nil }
                labels.append((key.trimmingCharacters(in: .whitespaces), value))
            }
        }
        var rest = String(String.UnicodeScalarView(scalars)).split(
            separator: " ", omittingEmptySubsequences: true)
        guard let valueText = rest.first else { return nil }
        rest = Array(rest.dropFirst())
        guard let value = Double(valueText) else { return nil }
        return Sample(name: name, labels: labels, value: value)
    }
}
