/// A parsed `url_template`: literal text and `{name}` placeholders.
struct URLTemplate {
    enum Segment: Equatable {
        case literal(String)
        case placeholder(String)
    }

    let segments: [Segment]

    /// Placeholder names in order of first appearance, each once.
    var placeholderNames: [String] {
        var seen = Set<String>()
        return segments.compactMap { segment in
            guard case .placeholder(let name) = segment, seen.insert(name).inserted else { return nil }
            return name
        }
    }

    /// Splits the template, or says what is wrong with it.
    static func parse(_ text: String) -> Result<URLTemplate, TemplateError> {
        var segments: [Segment] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            guard rest[open] == "{" else { return .failure(TemplateError(message: "url_template has a '}' without a '{'")) }
            if open > rest.startIndex { segments.append(.literal(String(rest[..<open]))) }
            let nameStart = rest.index(after: open)
            guard let close = rest[nameStart...].firstIndex(of: "}") else {
                return .failure(TemplateError(message: "url_template has a '{' that is not closed with '}'"))
            }
            let name = rest[nameStart..<close]
            guard isValidName(name) else {
                return .failure(TemplateError(
                    message: "url_template placeholder '{\(name)}' is not a valid name (letters, digits and _)"))
            }
            segments.append(.placeholder(String(name)))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { segments.append(.literal(String(rest))) }
        return .success(URLTemplate(segments: segments))
    }

    /// Expands every combination of `values` in order, the first key varying slowest, until `body`
    /// returns false. Each placeholder must have an entry in `values`.
    func forEachExpansion(_ values: [TemplateValues], _ body: (String) throws -> Bool) rethrows {
        var expansion = expansion(values)
        while let url = expansion.next() {
            guard try body(url) else { return }
        }
    }

    /// The same sequence as `forEachExpansion`, pulled one URL at a time.
    func expansion(_ values: [TemplateValues]) -> Expansion {
        let keyIndex = Dictionary(values.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        let parts: [(literal: String, key: Int)] = segments.map { segment in
            switch segment {
            case .literal(let text): return (text, -1)
            case .placeholder(let name): return ("", keyIndex[name] ?? -1)
            }
        }
        return Expansion(parts: parts, values: values.map(\.values))
    }

    /// An odometer over the values: the last key turns fastest, so the first varies slowest.
    struct Expansion {
        let parts: [(literal: String, key: Int)]
        let values: [[String]]
        var counters: [Int]
        var done: Bool

        init(parts: [(literal: String, key: Int)], values: [[String]]) {
            self.parts = parts
            self.values = values
            counters = [Int](repeating: 0, count: values.count)
            done = values.contains(where: \.isEmpty)
        }

        mutating func next() -> String? {
            guard !done else { return nil }
            var url = ""
            for part in parts {
                url += part.key >= 0 ? values[part.key][counters[part.key]] : part.literal
            }
            var position = values.count - 1
            while position >= 0 {
                counters[position] += 1
                if counters[position] < values[position].count { break }
                counters[position] = 0
                position -= 1
            }
            done = position < 0
            return url
        }
    }

    private static func isValidName(_ name: Substring) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) || byte == 0x5F
        }
    }
}

struct TemplateError: Error {
    var message: String
}

/// `values:` entries: a list of strings/numbers, or an inclusive integer range `"A..B"`.
enum TemplateRange {
    /// Ranges longer than this are refused: they are expanded in memory.
    static let maximumCount = 10_000_000

    /// `"1..500"` → 1…500; `"001..120"` keeps the width of the zero-padded start ("001", "002", …).
    /// nil when `text` does not look like a range; a failure when it does but is wrong.
    static func expand(_ text: String) -> Result<[String], TemplateError>? {
        let trimmed = text.trimmingSpaces
        guard let dots = trimmed.firstRange(of: "..") else { return nil }
        let startText = trimmed[..<dots.lowerBound].trimmingSpaces
        let endText = trimmed[dots.upperBound...].trimmingSpaces
        guard !startText.isEmpty, !endText.isEmpty,
            startText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), endText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let start = Int(startText), let end = Int(endText)
        else {
            return .failure(TemplateError(message: "expected a range of whole numbers like \"1..500\" or \"001..120\"; got '\(text)'"))
        }
        guard start <= end else {
            return .failure(TemplateError(message: "range '\(text)' starts after it ends; write the smaller number first"))
        }
        guard end - start < maximumCount else {
            return .failure(TemplateError(message: "range '\(text)' has more than \(maximumCount) values; split the group"))
        }
        let width = startText.hasPrefix("0") && startText.count > 1 ? startText.count : 0
        return .success((start...end).map { number in
            let digits = String(number)
            return digits.count < width ? String(repeating: "0", count: width - digits.count) + digits : digits
        })
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
