import Glibc
import PrewarmManifest

/// Pulls a group's URLs one at a time, without materialising the list: `url_file` is read line by
/// line and `url_template` is expanded by counting through its values (mixed radix, first key
/// slowest), so a million-URL group costs one URL of memory.
///
/// The manifest loader already validated every URL; the cursor only has to reproduce the same
/// sequence (same trimming and comment rules as the loader).
final class URLCursor {
    private enum State {
        case list([String], next: Int)
        case template(parts: [TemplatePart], values: [[String]], odometer: [Int], done: Bool)
        case file(handle: UnsafeMutablePointer<FILE>?)
    }

    private enum TemplatePart {
        case literal(String)
        case placeholder(Int)
    }

    private var state: State

    init(source: URLSource) {
        switch source {
        case .list(let urls):
            state = .list(urls, next: 0)
        case .file(let path, _):
            state = .file(handle: fopen(path, "r"))
        case .template(let template, let values):
            let parts = URLCursor.parse(template: template, names: values.map(\.name))
            let lists = values.map(\.values)
            state = .template(
                parts: parts, values: lists, odometer: Array(repeating: 0, count: lists.count),
                done: lists.contains(where: \.isEmpty))
        }
    }

    deinit {
        if case .file(let handle?) = state { fclose(handle) }
    }

    /// The next URL, or nil when the source is exhausted.
    func next() -> String? {
        switch state {
        case .list(let urls, let index):
            guard index < urls.count else { return nil }
            state = .list(urls, next: index + 1)
            return urls[index]
        case .file(let handle):
            guard let handle else { return nil }
            return URLCursor.nextLine(from: handle)
        case .template(let parts, let values, var odometer, let done):
            guard !done else { return nil }
            var url = ""
            for part in parts {
                switch part {
                case .literal(let text): url += text
                case .placeholder(let index): url += values[index][odometer[index]]
                }
            }
            // Advance the last key fastest, so the first key varies slowest.
            var position = odometer.count - 1
            var finished = true
            while position >= 0 {
                odometer[position] += 1
                if odometer[position] < values[position].count {
                    finished = false
                    break
                }
                odometer[position] = 0
                position -= 1
            }
            state = .template(parts: parts, values: values, odometer: odometer, done: finished)
            return url
        }
    }

    /// Skips blank lines and `#` comments; trims surrounding whitespace (the loader's rules).
    private static func nextLine(from handle: UnsafeMutablePointer<FILE>) -> String? {
        var buffer: UnsafeMutablePointer<CChar>? = nil
        var capacity = 0
        defer { free(buffer) }
        while true {
            let length = getline(&buffer, &capacity, handle)
            guard length >= 0, let buffer else { return nil }
            let bytes = UnsafeRawBufferPointer(start: buffer, count: length)
            var start = 0
            var end = length
            while start < end, isSpace(bytes[start]) { start += 1 }
            while end > start, isSpace(bytes[end - 1]) { end -= 1 }
            if start == end || bytes[start] == UInt8(ascii: "#") { continue }
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d
    }

    private static func parse(template: String, names: [String]) -> [TemplatePart] {
        var parts: [TemplatePart] = []
        var literal = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            if let index = names.firstIndex(of: name) {
                literal += rest[..<open]
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(.placeholder(index))
            } else {
                literal += rest[...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return parts
    }
}
