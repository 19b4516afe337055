/// A group's priority. The scheduler keeps one bucket per level and always starts work from the
/// highest non-empty bucket (SDWebImage's `SDWebImageDownloaderHighPriority`/`LowPriority`, widened
/// to five levels).
public enum Priority: Int, CaseIterable, Sendable, Comparable, Codable {
    case veryLow = 0
    case low
    case normal
    case high
    case veryHigh

    /// The manifest spelling: `very_high | high | normal | low | very_low`.
    public var name: String {
        switch self {
        case .veryLow: return "very_low"
        case .low: return "low"
        case .normal: return "normal"
        case .high: return "high"
        case .veryHigh: return "very_high"
        }
    }

    public init?(name: String) {
        guard let match = Priority.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// One step up, saturating at `veryHigh` (the `high_priority` option).
    public var raised: Priority { Priority(rawValue: rawValue + 1) ?? .veryHigh }
    /// One step down, saturating at `veryLow` (the `low_priority` option).
    public var lowered: Priority { Priority(rawValue: rawValue - 1) ?? .veryLow }

    public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
}
