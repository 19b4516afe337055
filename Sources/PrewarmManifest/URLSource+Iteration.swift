/// Reading a group's URLs.
extension URLSource {
    /// Number of URLs (no I/O).
    public var count: Int {
        switch self {
        case .list(let urls): return urls.count
        case .file(_, let count): return count
        case .template(_, let values): return values.reduce(1) { $0 * $1.values.count }
        }
    }

    /// Streams the URLs in order; url_file lines are read lazily. Stops early when body returns
    /// false. A url_file that can no longer be read (removed since it was loaded) yields what it
    /// could; its lines were validated at load time.
    public func forEachURL(_ body: (String) throws -> Bool) rethrows {
        let cursor = URLSourceCursor(self)
        while let url = cursor.next() {
            guard try body(url) else { return }
        }
    }
}

/// Pulls a group's URLs one at a time, without materialising the list: `url_file` is read line by
/// line and `url_template` is expanded by counting through its values, so a million-URL group costs
/// one URL of memory. The scheduler pulls one URL whenever a slot frees up; `forEachURL` is built on
/// it, so both see exactly the sequence the loader validated.
public final class URLSourceCursor {
    private enum State {
        case list([String], next: Int)
        case file(URLFileLineReader)
        case template(URLTemplate.Expansion?)
    }

    private var state: State

    public init(_ source: URLSource) {
        switch source {
        case .list(let urls):
            state = .list(urls, next: 0)
        case .file(let path, _):
            state = .file(URLFileLineReader(path: path))
        case .template(let text, let values):
            guard case .success(let template) = URLTemplate.parse(text) else {
                state = .template(nil)
                return
            }
            state = .template(template.expansion(values))
        }
    }

    /// The next URL, or nil when the source is exhausted.
    public func next() -> String? {
        switch state {
        case .list(let urls, let index):
            guard index < urls.count else { return nil }
            state = .list(urls, next: index + 1)
            return urls[index]
        case .file(let reader):
            return reader.next()
        case .template(var expansion):
            let url = expansion?.next()
            state = .template(expansion)
            return url
        }
    }
}
