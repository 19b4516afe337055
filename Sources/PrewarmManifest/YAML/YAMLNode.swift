/// One node of a parsed YAML document, with the position it started at (1-based, from libyaml's
/// marks). Only what a manifest needs: scalars, sequences and mappings, no anchors or tags.
struct YAMLNode: Sendable {
    enum Content: Sendable {
        /// `plain` is false for quoted and block scalars: only plain scalars can mean null.
        case scalar(String, plain: Bool)
        case sequence([YAMLNode])
        /// Keys are scalars (the parser refuses others), in document order.
        case mapping([(key: YAMLNode, value: YAMLNode)])
    }

    var content: Content
    var line: Int
    var column: Int

    /// A plain `~`, `null`, `Null`, `NULL` or an empty plain scalar (YAML 1.2 core schema).
    var isNull: Bool {
        guard case .scalar(let text, plain: true) = content else { return false }
        return text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
    }

    /// The scalar's text, or nil for sequences and mappings.
    var scalarText: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// How the node is named in "expected X, got Y" messages.
    var kindDescription: String {
        switch content {
        case .scalar(let text, _): return isNull ? "nothing" : "'\(text)'"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }
}
