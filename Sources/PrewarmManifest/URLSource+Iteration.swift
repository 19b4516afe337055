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
        switch self {
        case .list(let urls):
            for url in urls where !(try body(url)) { return }
        case .file(let path, _):
            try URLFile.forEachEntry(path: path) { entry in
                try body(String(decoding: entry.bytes, as: UTF8.self))
            }
        case .template(let text, let values):
            guard case .success(let template) = URLTemplate.parse(text) else { return }
            try template.forEachExpansion(values, body)
        }
    }
}
