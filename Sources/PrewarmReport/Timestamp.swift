import Foundation

/// ISO 8601 UTC timestamps for reports: `2026-11-21T05:43:12.345Z` (milliseconds, so durations
/// survive a round trip); reading also accepts whole seconds.
enum Timestamp {
    static func string(from date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }

    static func date(from string: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
            .parse(string)
        {
            return date
        }
        return try? Date.ISO8601FormatStyle(timeZone: .gmt).parse(string)
    }

    /// Drops what the text form cannot hold (below a millisecond), so a report built in memory
    /// equals the same report read back from its file.
    static func truncatedToMilliseconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }
}
