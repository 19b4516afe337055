import PrewarmManifest

/// Pulls a group's URLs one at a time, without materialising the list: `url_file` is read line by
/// line and `url_template` is expanded by counting through its values (mixed radix, first key
/// slowest), so a million-URL group costs one URL of memory.
///
/// The manifest loader already validated every URL; `url_file` lines are read by the manifest
/// module's own reader, so the comment and trimming rules cannot drift apart.
final class URLCursor {
    private enum State {
        case list([String], next: Int)
        case template(parts: [TemplatePart], values: [[String]], odometer: [Int], done: Bool)
        case file(URLFileLineReader)
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
            state = .file(URLFileLineReader(path: path))
        case .template(let template, let values):
            let parts = URLCursor.parse(template: template, names: values.map(\.name))
            let lists = values.map(\.values)
            state = .template(
                parts: parts, values: lists, odometer: Array(repeating: 0, count: lists.count),
                done: lists.contains(where: \.isEmpty))
        }
    }

    /// The next URL, or nil when the source is exhausted.
    func next() -> String? {
        switch state {
        case .list(let urls, let index):
            guard index < urls.count else { return nil }
            state = .list(urls, next: index + 1)
            return urls[index]
        case .file(let reader):
            return reader.next()
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
