import CCurl
import Glibc

/// Collects the header lines curl hands over, keeping only the last response's: every status line
/// (a redirect, a 100 Continue, the final answer) starts a new set.
struct ResponseHeaders {
    private(set) var fields: [String: String] = [:]
    /// Status lines seen so far, over all redirects.
    private(set) var responsesSeen = 0

    mutating func consume(line raw: String) {
        let line = raw.trimmingTrailingNewline()
        if line.hasPrefix("HTTP/") {
            fields = [:]
            responsesSeen += 1
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingSpaces()
        if let existing = fields[name] {
            fields[name] = existing + ", " + value
        } else {
            fields[name] = value
        }
    }

    /// `Retry-After` in seconds from `now`: delta-seconds or an HTTP-date (dates in the past give 0).
    func retryAfter(now: Double) -> Double? {
        guard let value = fields["retry-after"], !value.isEmpty else { return nil }
        if value.allSatisfy(\.isNumber) { return Double(value) }
        let when = curl_getdate(value, nil)
        guard when >= 0 else { return nil }
        return max(0, Double(when) - now)
    }
}

extension String {
    fileprivate func trimmingTrailingNewline() -> String {
        var result = Substring(self)
        while let last = result.last, last == "\r\n" || last == "\n" || last == "\r" {
            result = result.dropLast()
        }
        return String(result)
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(
            drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: {
                $0 == " " || $0 == "\t"
            }).reversed())
    }
}
