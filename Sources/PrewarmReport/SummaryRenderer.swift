import Foundation

/// The summary printed at the end of a run (and by `report merge`): a table per job and group,
/// the failure reasons with what to do about each, and a few example failures.
public enum SummaryRenderer {
    /// How many example failures are listed.
    public static let exampleLimit = 10

    /// The column titles, after the name column.
    static let columns = [
        "urls", "fetched", "revalidated", "cached", "blacklisted", "missing", "failed", "cancelled",
        "variants", "MB", "time",
    ]

    /// The whole summary, ending in a newline.
    public static func render(_ report: RunReport) -> String {
        var text = table(report)
        let reasons = report.failedByReason.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        if !reasons.isEmpty {
            text += "\nFailures by reason:\n"
            let codeWidth = reasons.map(\.key.count).max() ?? 0
            let countWidth = reasons.map { String($0.value).count }.max() ?? 0
            for (code, count) in reasons {
                text +=
                    "  " + pad(code, codeWidth, right: false) + "  "
                    + pad(String(count), countWidth)
                    + "  " + FailureHints.hint(for: code) + "\n"
            }
            text += examples(report)
        }
        if report.interrupted {
            text +=
                "\nInterrupted: \(report.totals.cancelled) URLs were cancelled; run again to finish.\n"
        }
        return text
    }

    /// The aligned table: one row per job, its groups indented under it, and a total row when
    /// there is more than one job.
    static func table(_ report: RunReport) -> String {
        var rows: [[String]] = [["job / group"] + columns]
        for job in report.jobsDetail {
            rows.append([job.job] + cells(job.totals, seconds: job.elapsedSeconds))
            for group in job.groups {
                rows.append(
                    ["  " + group.group] + cells(group.totals, seconds: group.elapsedSeconds))
            }
        }
        if report.jobsDetail.count > 1 {
            rows.append(["total"] + cells(report.totals, seconds: report.durationSeconds))
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                pad(cell, widths[column], right: column > 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    static func cells(_ t: Totals, seconds: Double) -> [String] {
        [
            t.urls, t.fetched, t.revalidated, t.cached, t.blacklisted, t.missing, t.failed,
            t.cancelled,
            t.variantsWritten,
        ].map(String.init)
            + [String(format: "%.1f", Double(t.bytesDownloaded) / 1_000_000), formatTime(seconds)]
    }

    static func examples(_ report: RunReport) -> String {
        guard !report.failures.isEmpty else { return "" }
        let shown = report.failures.prefix(exampleLimit)
        let total = report.totals.failed
        var text = "\nExample failures (\(shown.count) of \(total)"
        if report.failuresTruncated > 0 {
            text += "; the report lists the first \(report.failures.count)"
        }
        text += "):\n"
        let reasonWidth = shown.map(\.reason.count).max() ?? 0
        for failure in shown {
            var facts = ["\(failure.job)/\(failure.group)"]
            if let status = failure.status { facts.append("status \(status)") }
            facts.append(failure.attempts == 1 ? "1 attempt" : "\(failure.attempts) attempts")
            text +=
                "  \(pad(failure.reason, reasonWidth, right: false))  \(failure.url)  (\(facts.joined(separator: ", ")))"
            if let detail = failure.detail, !detail.isEmpty { text += ": " + oneLine(detail) }
            text += "\n"
        }
        return text
    }

    /// `12.3s`, `4:05`, `1:02:03`.
    static func formatTime(_ seconds: Double) -> String {
        guard seconds >= 60 else { return String(format: "%.1fs", max(0, seconds)) }
        let total = Int(seconds.rounded())
        let h = total / 3600
        let m = (total % 3600) / 60
        let s = total % 60
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }

    static func pad(_ text: String, _ width: Int, right: Bool = true) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }

    /// A detail may hold a curl message with newlines; the summary keeps one line per failure.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
