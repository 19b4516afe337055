import Foundation

/// Keeps secrets out of every output (SPEC "Reports": credentials in URLs and header values that
/// came from `${...}` are redacted).
public enum Redaction {
    /// The placeholder that stands where a secret was.
    public static let mask = "***"

    /// `https://user:secret@host/a.jpg` → `https://***@host/a.jpg`. URLs without user info are
    /// returned unchanged (and without allocating).
    public static func url(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let authorityStart = schemeEnd.upperBound
        let rest = url[authorityStart...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? url.endIndex
        guard let at = url[authorityStart..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<authorityStart]) + mask + String(url[at...])
    }

    /// Replaces every occurrence of each secret inside `text` (curl messages can echo a header).
    public static func text(_ text: String, secrets: [String]) -> String {
        var result = text
        for secret in secrets where !secret.isEmpty {
            result = result.replacingOccurrences(of: secret, with: mask)
        }
        return result
    }
}
