/// Typed readers for scalar values. Each reports what is wrong and how to write it instead.
extension ManifestDecoder {
    /// A scalar's text after `${NAME}` substitution, and whether a variable was substituted.
    mutating func interpolated(_ node: YAMLNode, _ what: String, expected: String = "a string") -> (text: String, usedVariables: Bool)? {
        guard case .scalar(let raw, _) = node.content, !node.isNull else {
            report(node, "\(what): expected \(expected); got \(node.kindDescription)")
            return nil
        }
        switch Interpolation.expand(raw, environment: environment) {
        case .success(let result): return (result.text, result.usedVariables)
        case .failure(let failure):
            report(node, "\(what): \(failure.message)")
            return nil
        }
    }

    mutating func string(_ node: YAMLNode, _ what: String) -> String? {
        interpolated(node, what)?.text
    }

    /// A non-empty string.
    mutating func name(_ node: YAMLNode, _ what: String) -> String? {
        guard let text = string(node, what) else { return nil }
        guard !text.trimmingSpaces.isEmpty else {
            report(node, "\(what): must not be empty")
            return nil
        }
        return text
    }

    mutating func integer(_ node: YAMLNode, _ what: String, atLeast minimum: Int, atMost maximum: Int = .max) -> Int? {
        guard let text = interpolated(node, what, expected: "a whole number")?.text else { return nil }
        let digits = text.trimmingSpaces.replacing("_", with: "")
        guard let value = Int(digits) else {
            report(node, "\(what): expected a whole number; got '\(text)'")
            return nil
        }
        guard value >= minimum, value <= maximum else {
            if maximum == .max {
                report(node, "\(what): must be at least \(minimum); got \(value)")
            } else {
                report(node, "\(what): must be between \(minimum) and \(maximum); got \(value)")
            }
            return nil
        }
        return value
    }

    /// A non-negative number (integer or decimal).
    mutating func number(_ node: YAMLNode, _ what: String) -> Double? {
        guard let text = interpolated(node, what, expected: "a number")?.text else { return nil }
        guard let value = Double(text.trimmingSpaces), value.isFinite, value >= 0 else {
            report(node, "\(what): expected a number of 0 or more; got '\(text)'")
            return nil
        }
        return value
    }

    mutating func bool(_ node: YAMLNode, _ what: String) -> Bool? {
        guard let text = interpolated(node, what, expected: "true or false")?.text else { return nil }
        switch text.trimmingSpaces {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default:
            report(node, "\(what): expected true or false; got '\(text)'")
            return nil
        }
    }

    mutating func duration(_ node: YAMLNode, _ what: String) -> Double? {
        guard let text = interpolated(node, what, expected: "a duration")?.text else { return nil }
        guard let seconds = ManifestValues.duration(text) else {
            report(node, "\(what): expected a duration like 15s, 500ms, 2h; got '\(text)'")
            return nil
        }
        return seconds
    }

    mutating func byteSize(_ node: YAMLNode, _ what: String) -> Int64? {
        guard let text = interpolated(node, what, expected: "a size")?.text else { return nil }
        guard let bytes = ManifestValues.byteSize(text) else {
            report(node, "\(what): expected a size like 50MiB, 20GB, 4096 (bytes); got '\(text)'")
            return nil
        }
        return bytes
    }

    mutating func pixelCount(_ node: YAMLNode, _ what: String) -> Int64? {
        guard let text = interpolated(node, what, expected: "a pixel count")?.text else { return nil }
        guard let pixels = ManifestValues.pixelCount(text) else {
            report(node, "\(what): expected a pixel count like 100M or 40000000; got '\(text)'")
            return nil
        }
        return pixels
    }

    /// One of a fixed set of words, e.g. `order: fifo | lifo`.
    mutating func choice<Value>(_ node: YAMLNode, _ what: String, _ choices: [(String, Value)]) -> Value? {
        guard let text = interpolated(node, what, expected: "a word")?.text else { return nil }
        if let match = choices.first(where: { $0.0 == text }) { return match.1 }
        let names = choices.map(\.0)
        report(node, "unknown \(what) '\(text)'\(Suggestion.hint(for: text, in: names)); use one of \(names.joined(separator: ", "))")
        return nil
    }

    /// A path, `~/` expanded from HOME and a relative path resolved against the manifest's folder.
    func resolvePath(_ path: String) -> String {
        if path.hasPrefix("~/"), let home = environment["HOME"] { return home + path.dropFirst() }
        if path.hasPrefix("/") || folder.isEmpty { return path }
        return folder.hasSuffix("/") ? folder + path : folder + "/" + path
    }
}
