/// One option a command accepts.
public struct OptionSpec: Sendable {
    /// Without dashes: `concurrency` for `--concurrency`.
    public var name: String
    /// The placeholder shown in help (`N`, `DIR`); nil for a switch that takes no value.
    public var valueName: String?
    public var help: String

    public init(_ name: String, value: String? = nil, help: String) {
        self.name = name
        self.valueName = value
        self.help = help
    }
}

/// What the command line said, after checking it against the command's options.
public struct ParsedArguments: Sendable {
    public var positionals: [String] = []
    /// Options with values; the last occurrence wins, as in curl.
    public var values: [String: String] = [:]
    /// Switches that were given.
    public var switches: Set<String> = []

    public func value(_ name: String) -> String? { values[name] }
    public func has(_ name: String) -> Bool { switches.contains(name) || values[name] != nil }
}

/// A command-line mistake: the message names the argument and what to do; the CLI exits 2.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// prewarm's argument parser (the user chose no packages, so no swift-argument-parser).
/// Accepts `--name value`, `--name=value`, switches, `--` to end options, and `-` as a
/// positional (stdin/stdout). Unknown options get a "did you mean" suggestion.
public enum ArgumentParser {
    public static func parse(_ arguments: [String], options: [OptionSpec]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let body = argument.drop(while: { $0 == "-" })
            let name: String
            var inlineValue: String? = nil
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                throw UsageError(unknownOptionMessage(argument: "--\(name)", options: options))
            }
            if spec.valueName == nil {
                if inlineValue != nil { throw UsageError("option '--\(name)' takes no value") }
                parsed.switches.insert(name)
                continue
            }
            if let inlineValue {
                parsed.values[name] = inlineValue
            } else if index < arguments.count {
                parsed.values[name] = arguments[index]
                index += 1
            } else {
                throw UsageError("option '--\(name)' needs a value (\(spec.valueName!))")
            }
        }
        return parsed
    }

    /// "unknown option '--concurency' (did you mean '--concurrency'?)".
    static func unknownOptionMessage(argument: String, options: [OptionSpec]) -> String {
        let name = String(argument.drop(while: { $0 == "-" }))
        let best = options.map { ($0.name, editDistance($0.name, name)) }.min { $0.1 < $1.1 }
        if let best, best.1 <= max(2, name.count / 3) {
            return "unknown option '\(argument)' (did you mean '--\(best.0)'?)"
        }
        return "unknown option '\(argument)'; see --help"
    }

    /// Levenshtein distance, for suggestions.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The options part of a command's help text, aligned.
    public static func helpText(for options: [OptionSpec]) -> String {
        let labels = options.map { spec in
            spec.valueName.map { "--\(spec.name) \($0)" } ?? "--\(spec.name)"
        }
        let width = (labels.map(\.count).max() ?? 0) + 2
        return zip(labels, options).map { label, spec in
            "  " + label + String(repeating: " ", count: width - label.count) + spec.help
        }.joined(separator: "\n")
    }
}
