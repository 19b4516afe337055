/// `${NAME}` substitution from the environment (SPEC: "`${NAME}` is replaced from the environment;
/// an unset variable is a manifest error").
///
/// Also understood, as in a POSIX shell: `${NAME:-fallback}` (the fallback when NAME is unset or
/// empty) and `$${` for a literal `${`. A lone `$` is left alone, so URLs may contain it.
enum Interpolation {
    struct Result: Equatable {
        var text: String
        /// True when at least one `${...}` was substituted: the text may hold a secret.
        var usedVariables: Bool
    }

    enum Failure: Error, Equatable {
        case unset(String)
        case unclosed
        case badName(String)

        var message: String {
            switch self {
            case .unset(let name):
                return "environment variable '\(name)' is not set; export it, or write ${\(name):-default}"
            case .unclosed:
                return "'${' is not closed with '}'; write $${ for a literal '${'"
            case .badName(let name):
                return "'\(name)' is not a valid environment variable name (letters, digits and _, not starting with a digit)"
            }
        }
    }

    static func expand(_ text: String, environment: [String: String]) -> Swift.Result<Result, Failure> {
        guard text.utf8.contains(UInt8(ascii: "$")) else { return .success(Result(text: text, usedVariables: false)) }
        var output = ""
        var used = false
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            output += rest[..<dollar]
            let afterDollar = rest.index(after: dollar)
            if rest[afterDollar...].hasPrefix("${") {  // `$${` → literal `${`
                output += "${"
                rest = rest[rest.index(afterDollar, offsetBy: 2)...]
                continue
            }
            guard rest[afterDollar...].hasPrefix("{") else {
                output += "$"
                rest = rest[afterDollar...]
                continue
            }
            let bodyStart = rest.index(after: afterDollar)
            guard let close = rest[bodyStart...].firstIndex(of: "}") else { return .failure(.unclosed) }
            let body = rest[bodyStart..<close]
            let name: Substring
            let fallback: Substring?
            if let separator = body.firstRange(of: ":-") {
                name = body[..<separator.lowerBound]
                fallback = body[separator.upperBound...]
            } else {
                name = body
                fallback = nil
            }
            guard isValidName(name) else { return .failure(.badName(String(name))) }
            if let value = environment[String(name)], !(value.isEmpty && fallback != nil) {
                output += value
            } else if let fallback {
                output += fallback
            } else {
                return .failure(.unset(String(name)))
            }
            used = true
            rest = rest[rest.index(after: close)...]
        }
        output += rest
        return .success(Result(text: output, usedVariables: used))
    }

    private static func isValidName(_ name: Substring) -> Bool {
        guard let first = name.utf8.first, !(first >= 0x30 && first <= 0x39) else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) || byte == 0x5F
        }
    }
}
