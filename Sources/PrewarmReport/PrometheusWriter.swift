import Foundation
import PrewarmCore

/// `--metrics FILE`: the run's metrics in Prometheus text format, for node_exporter's textfile
/// collector, written atomically (temporary file + rename) so a scrape never reads half a file.
///
/// Series (every one per `job`; the `_total` series are typed counters that restart with each
/// run, the rest gauges):
/// - `prewarm_urls_total{job,group,outcome}`: every outcome of every group, zeros included, so a
///   dashboard's queries always find their series.
/// - `prewarm_bytes_downloaded_total`, `prewarm_bytes_written_total`,
///   `prewarm_variants_written_total` `{job}`.
/// - `prewarm_run_duration_seconds{job}`: the run's wall time.
/// - `prewarm_last_run_timestamp_seconds{job}`: when the run ended (Unix seconds).
/// - `prewarm_last_success_timestamp_seconds{job}`: when the job last ended a successful run: no
///   URL of the job failed, the run was not interrupted and did not end in a fatal environment
///   error (exit 3). After an unsuccessful run the previous file's value is kept; a job that has
///   never succeeded has no sample, so `absent()` alerts work.
/// - `prewarm_failures_total{job,reason}`: failures by reason code.
///
/// Note that Prometheus renames a scraped `job` label to `exported_job` unless the scrape config
/// sets `honor_labels: true`.
public enum PrometheusWriter {
    /// A failure to write the metrics file.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        /// The message, naming the file.
        public var description: String
    }

    /// Writes the metrics of `report` to `path`, carrying `last_success` values over from the
    /// file already there (if any) for jobs that did not succeed this time.
    public static func write(_ report: RunReport, to path: String) throws(WriteError) {
        let previous =
            (try? String(contentsOfFile: path, encoding: .utf8)).map(lastSuccessTimes) ?? [:]
        let text = render(report, previousSuccess: previous)
        do {
            try AtomicFile.write(Data(text.utf8), to: path)
        } catch {
            throw WriteError(description: error.description)
        }
    }

    /// Reads `prewarm_last_success_timestamp_seconds{job=...}` values from a metrics file's text.
    public static func lastSuccessTimes(in text: String) -> [String: Double] {
        var times: [String: Double] = [:]
        for sample in PrometheusText.parseSamples(text)
        where sample.name == "prewarm_last_success_timestamp_seconds" {
            if let job = sample.label("job") { times[job] = sample.value }
        }
        return times
    }

    /// Whether `job` succeeded in this run (see the type's documentation).
    public static func isSuccess(_ job: JobDetail, in report: RunReport) -> Bool {
        job.totals.failed == 0 && !report.interrupted && report.exitCode != 3
    }

    /// The file's text for `report`; `previousSuccess` maps job → last success time to carry over.
    public static func render(_ report: RunReport, previousSuccess: [String: Double] = [:])
        -> String
    {
        var out: [String] = []
        func header(_ name: String, _ type: String, _ help: String) {
            out.append("# HELP \(name) \(help)")
            out.append("# TYPE \(name) \(type)")
        }
        func sample(_ name: String, _ labels: [(String, String)], _ value: Double) {
            out.append(PrometheusText.line(name, labels, PrometheusText.format(value)))
        }
        let jobs = report.jobsDetail

        header("prewarm_urls_total", "counter", "URLs of the last run by job, group and outcome.")
        for job in jobs {
            for group in job.groups {
                for outcome in Outcome.allCases {
                    sample(
                        "prewarm_urls_total",
                        [("job", job.job), ("group", group.group), ("outcome", outcome.rawValue)],
                        Double(group.totals.count(of: outcome)))
                }
            }
        }
        header(
            "prewarm_bytes_downloaded_total", "counter", "Body bytes downloaded by the last run.")
        for job in jobs {
            sample(
                "prewarm_bytes_downloaded_total", [("job", job.job)],
                Double(job.totals.bytesDownloaded))
        }
        header(
            "prewarm_bytes_written_total", "counter", "Bytes written to the cache by the last run.")
        for job in jobs {
            sample(
                "prewarm_bytes_written_total", [("job", job.job)], Double(job.totals.bytesWritten))
        }
        header(
            "prewarm_variants_written_total", "counter", "Variant files written by the last run.")
        for job in jobs {
            sample(
                "prewarm_variants_written_total", [("job", job.job)],
                Double(job.totals.variantsWritten))
        }
        header("prewarm_run_duration_seconds", "gauge", "Wall time of the last run.")
        for job in jobs {
            sample("prewarm_run_duration_seconds", [("job", job.job)], report.durationSeconds)
        }
        header(
            "prewarm_last_run_timestamp_seconds", "gauge", "When the last run ended (Unix time).")
        let ended = report.endedAt.timeIntervalSince1970
        for job in jobs { sample("prewarm_last_run_timestamp_seconds", [("job", job.job)], ended) }
        header(
            "prewarm_last_success_timestamp_seconds", "gauge",
            "When the last run without failures ended (Unix time).")
        for job in jobs {
            let value = isSuccess(job, in: report) ? ended : previousSuccess[job.job]
            if let value {
                sample("prewarm_last_success_timestamp_seconds", [("job", job.job)], value)
            }
        }
        header("prewarm_failures_total", "counter", "Failed URLs of the last run by reason.")
        for job in jobs {
            for (reason, count) in job.failedByReason.sorted(by: { $0.key < $1.key }) {
                sample(
                    "prewarm_failures_total", [("job", job.job), ("reason", reason)], Double(count))
            }
        }
        return out.joined(separator: "\n") + "\n"
    }
}
