import Foundation

/// Formats one progress line from a `RunProgress`:
/// `1234/5000 24.7% | fetched 1000 cached 200 failed 34 | 123.4 URLs/s | ETA 00:31 | 12.3 MB`.
/// Outcome counts that are zero are left out, except fetched, cached and failed, which people look
/// for. Colour (when allowed) marks failures red and fetched green; truncation counts only visible
/// characters, so escape codes never get cut in half.
struct ProgressLine {
    struct Segment {
        var text: String
        var color: String?
    }

    static let red = "\u{1B}[31m"
    static let green = "\u{1B}[32m"
    static let yellow = "\u{1B}[33m"
    static let reset = "\u{1B}[0m"

    static func segments(_ progress: RunProgress) -> [Segment] {
        let t = progress.totals
        let done = t.finished
        let percent = t.urls > 0 ? Double(done) * 100 / Double(t.urls) : 100
        var out: [Segment] = [
            Segment(text: "\(done)/\(t.urls) " + String(format: "%.1f%%", percent))
        ]
        out.append(Segment(text: " | "))
        var counts: [Segment] = [Segment(text: "fetched \(t.fetched)", color: green)]
        if t.revalidated > 0 {
            counts.append(Segment(text: "revalidated \(t.revalidated)", color: green))
        }
        counts.append(Segment(text: "cached \(t.cached)"))
        if t.blacklisted > 0 {
            counts.append(Segment(text: "blacklisted \(t.blacklisted)", color: yellow))
        }
        if t.missing > 0 { counts.append(Segment(text: "missing \(t.missing)", color: yellow)) }
        counts.append(Segment(text: "failed \(t.failed)", color: t.failed > 0 ? red : nil))
        if t.cancelled > 0 {
            counts.append(Segment(text: "cancelled \(t.cancelled)", color: yellow))
        }
        for (i, segment) in counts.enumerated() {
            if i > 0 { out.append(Segment(text: " ")) }
            out.append(segment)
        }
        let rate = progress.elapsedSeconds > 0 ? Double(done) / progress.elapsedSeconds : 0
        out.append(Segment(text: " | " + String(format: "%.1f URLs/s", rate)))
        let remaining = max(0, t.urls - done)
        let eta: String
        if remaining == 0 {
            eta = formatDuration(0)
        } else if rate > 0 {
            eta = formatDuration(Double(remaining) / rate)
        } else {
            eta = "--:--"
        }
        out.append(Segment(text: " | ETA " + eta))
        out.append(
            Segment(text: " | " + String(format: "%.1f MB", Double(t.bytesDownloaded) / 1_000_000)))
        return out
    }

    /// `mm:ss`, or `h:mm:ss` from an hour on.
    static func formatDuration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.up).clamped(to: 0...359_999))
        let h = total / 3600
        let m = (total % 3600) / 60
        let s = total % 60
        if h > 0 { return String(format: "%d:%02d:%02d", h, m, s) }
        return String(format: "%02d:%02d", m, s)
    }

    /// Joins segments, cut to `width` visible characters (nil = no limit), coloured or not.
    static func render(_ segments: [Segment], width: Int?, color: Bool) -> String {
        var remaining = width ?? Int.max
        var out = ""
        for segment in segments where remaining > 0 {
            let visible =
                segment.text.count <= remaining
                ? segment.text : String(segment.text.prefix(remaining))
            remaining -= visible.count
            if color, let code = segment.color {
                out += code + visible + reset
            } else {
                out += visible
            }
        }
        return out
    }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
