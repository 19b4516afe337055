import CYAML

/// A problem found while reading YAML, at a 1-based line and column.
struct YAMLProblem: Sendable, Equatable {
    var line: Int
    var column: Int
    var message: String
}

/// Turns YAML text into a `YAMLNode` tree with libyaml's event parser (`yaml_parser_parse`).
///
/// Anchors, aliases and merge keys are refused: a manifest has no use for them, and refusing
/// aliases keeps "billion laughs" expansion out. A syntax error stops the parse (libyaml cannot go
/// on); the other problems are collected so the caller can report them all at once.
enum YAMLParser {
    /// Deeper nesting is refused, so that neither building nor freeing the tree can exhaust the stack.
    static let maximumDepth = 64

    /// The document's root node (nil for an empty document) and every problem found.
    static func parse(_ text: [UInt8]) -> (root: YAMLNode?, problems: [YAMLProblem]) {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) != 0 else {
            return (nil, [YAMLProblem(line: 1, column: 1, message: "cannot initialise the YAML parser (out of memory)")])
        }
        defer { yaml_parser_delete(&parser) }

        return text.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            var builder = TreeBuilder()
            while !builder.isFinished {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) != 0 else {
                    builder.problems.append(syntaxProblem(parser))
                    return (nil, builder.problems)
                }
                builder.handle(&event)
                yaml_event_delete(&event)
                if builder.isTooDeep { return (nil, builder.problems) }
            }
            return (builder.root, builder.problems)
        }
    }

    /// libyaml's own description and mark, e.g. "could not find expected ':' (while scanning a
    /// simple key at line 3, column 1)".
    private static func syntaxProblem(_ parser: yaml_parser_t) -> YAMLProblem {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
        var message = "YAML syntax error: \(problem)"
        if let context = parser.context.map({ String(cString: $0) }) {
            let mark = parser.context_mark
            message += " (\(context) at line \(mark.line + 1), column \(mark.column + 1))"
        }
        let mark = parser.problem_mark
        return YAMLProblem(line: Int(mark.line) + 1, column: Int(mark.column) + 1, message: message)
    }
}

/// Builds the node tree from the event stream with an explicit stack (no recursion).
private struct TreeBuilder {
    /// A collection being built. A class, so appending never copies the arrays (a `urls:` list
    /// may hold many thousands of entries).
    private final class Frame {
        let isMapping: Bool
        let line: Int
        let column: Int
        var items: [YAMLNode] = []
        var pairs: [(key: YAMLNode, value: YAMLNode)] = []
        var pendingKey: YAMLNode?
        var keyLines: [String: Int] = [:]

        init(isMapping: Bool, line: Int, column: Int) {
            self.isMapping = isMapping
            self.line = line
            self.column = column
        }

        var node: YAMLNode {
            YAMLNode(content: isMapping ? .mapping(pairs) : .sequence(items), line: line, column: column)
        }
    }

    private var stack: [Frame] = []
    private var documents = 0
    private(set) var root: YAMLNode?
    private(set) var isFinished = false
    private(set) var isTooDeep = false
    var problems: [YAMLProblem] = []

    mutating func handle(_ event: inout yaml_event_t) {
        let line = Int(event.start_mark.line) + 1
        let column = Int(event.start_mark.column) + 1
        switch event.type {
        case YAML_STREAM_END_EVENT:
            isFinished = true
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents == 2 {
                problems.append(YAMLProblem(
                    line: line, column: column,
                    message: "a manifest holds one YAML document; remove the second '---' document or put it in its own file"))
            }
        case YAML_SCALAR_EVENT:
            refuseAnchor(event.data.scalar.anchor, line: line, column: column)
            let scalar = event.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            let plain = scalar.style == YAML_PLAIN_SCALAR_STYLE
            add(YAMLNode(content: .scalar(text, plain: plain), line: line, column: column))
        case YAML_SEQUENCE_START_EVENT:
            refuseAnchor(event.data.sequence_start.anchor, line: line, column: column)
            push(Frame(isMapping: false, line: line, column: column))
        case YAML_MAPPING_START_EVENT:
            refuseAnchor(event.data.mapping_start.anchor, line: line, column: column)
            push(Frame(isMapping: true, line: line, column: column))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = stack.popLast() else { return }
            add(frame.node)
        case YAML_ALIAS_EVENT:
            problems.append(YAMLProblem(
                line: line, column: column,
                message: "YAML aliases ('*name') are not supported in manifests; write the value out in full"))
            add(YAMLNode(content: .scalar("", plain: true), line: line, column: column))
        default:
            break  // stream start, document end: nothing to build
        }
    }

    private mutating func refuseAnchor(_ anchor: UnsafeMutablePointer<yaml_char_t>?, line: Int, column: Int) {
        guard let anchor else { return }
        let name = String(cString: anchor)
        problems.append(YAMLProblem(
            line: line, column: column,
            message: "YAML anchors ('&\(name)') are not supported in manifests; use 'defaults' to share settings between groups"))
    }

    private mutating func push(_ frame: Frame) {
        if stack.count >= YAMLParser.maximumDepth {
            problems.append(YAMLProblem(
                line: frame.line, column: frame.column,
                message: "YAML is nested more than \(YAMLParser.maximumDepth) levels deep"))
            isTooDeep = true
            return
        }
        stack.append(frame)
    }

    /// Attaches a finished node to its parent, or makes it the root.
    private mutating func add(_ node: YAMLNode) {
        guard let parent = stack.last else {
            if documents <= 1 { root = node }
            return
        }
        if !parent.isMapping {
            parent.items.append(node)
        } else if let key = parent.pendingKey {
            parent.pairs.append((key, node))
            parent.pendingKey = nil
        } else {
            checkKey(node, in: parent)
            parent.pendingKey = node
        }
    }

    private mutating func checkKey(_ key: YAMLNode, in mapping: Frame) {
        guard case .scalar(let text, let plain) = key.content else {
            problems.append(YAMLProblem(
                line: key.line, column: key.column,
                message: "a mapping key must be a plain word, not \(key.kindDescription)"))
            return
        }
        if plain && text == "<<" {
            problems.append(YAMLProblem(
                line: key.line, column: key.column,
                message: "YAML merge keys ('<<') are not supported in manifests; use 'defaults' to share settings between groups"))
            return
        }
        if let firstLine = mapping.keyLines[text] {
            problems.append(YAMLProblem(
                line: key.line, column: key.column,
                message: "duplicate key '\(text)' (first set at line \(firstLine)); remove one of them"))
        } else {
            mapping.keyLines[text] = key.line
        }
    }
}
