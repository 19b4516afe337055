/// Turns one manifest's node tree into a `Manifest`, collecting every problem instead of stopping
/// at the first. Each node is read exactly once, so no problem is reported twice.
struct ManifestDecoder {
    /// The manifest file as given, for messages.
    let file: String
    /// The manifest's folder as given ("" for the current one): relative paths resolve against it.
    let folder: String
    let environment: [String: String]
    var issues: [ManifestIssue] = []

    init(file: String, environment: [String: String]) {
        self.file = file
        self.environment = environment
        if let slash = file.lastIndex(of: "/") {
            folder = slash == file.startIndex ? "/" : String(file[..<slash])
        } else {
            folder = ""
        }
    }

    // MARK: Issues

    mutating func report(_ node: YAMLNode, _ message: String) {
        issues.append(ManifestIssue(file: file, line: node.line, column: node.column, message: message))
    }

    mutating func report(line: Int, column: Int, _ message: String) {
        issues.append(ManifestIssue(file: file, line: line, column: column, message: message))
    }

    /// An issue in another file (a `url_file`).
    mutating func report(file: String, line: Int, column: Int, _ message: String) {
        issues.append(ManifestIssue(file: file, line: line, column: column, message: message))
    }

    // MARK: Mappings

    /// The entries of a mapping node, keyed by their text; nil (after reporting) for anything else.
    /// A null node is an empty mapping (`cache:` with nothing under it).
    mutating func mapping(_ node: YAMLNode, _ what: String) -> [(key: String, keyNode: YAMLNode, value: YAMLNode)]? {
        if node.isNull { return [] }
        guard case .mapping(let pairs) = node.content else {
            report(node, "\(what): expected a mapping of keys and values; got \(node.kindDescription)")
            return nil
        }
        return pairs.compactMap { pair in
            guard let key = pair.key.scalarText else { return nil }  // the YAML parser reported it
            return (key, pair.key, pair.value)
        }
    }

    /// Reports `key` as unknown, with a suggestion from `known`.
    mutating func reportUnknownKey(_ key: String, at node: YAMLNode, in context: String, known: [String]) {
        report(node, "unknown key '\(key)' in \(context)\(Suggestion.hint(for: key, in: known))")
    }

    /// The items of a sequence node; nil (after reporting) for anything else. Null is an empty list.
    mutating func sequence(_ node: YAMLNode, _ what: String, expected: String = "a list") -> [YAMLNode]? {
        if node.isNull { return [] }
        guard case .sequence(let items) = node.content else {
            report(node, "\(what): expected \(expected); got \(node.kindDescription)")
            return nil
        }
        return items
    }
}
