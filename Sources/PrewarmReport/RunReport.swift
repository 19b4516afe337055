import Foundation
import PrewarmCore

/// The `--report` JSON of one run (or of merged shards): schema `prewarm.report/v1`.
///
/// Keys are snake_case; `ReportWriter` writes them sorted and pretty-printed. Build one with
/// `RunRecorder.report(...)`, read one with `RunReport.load(path:)`, join shards with
/// `ReportMerger.merge(_:)`.
public struct RunReport: Sendable, Hashable {
    /// The schema name every report carries.
    public static let schemaName = "prewarm.report/v1"
    /// How many failures a report lists; the rest are only counted in `failuresTruncated`.
    public static let failureListLimit = 1000

    /// Always `prewarm.report/v1` for reports this code writes.
    public var schema: String = RunReport.schemaName
    /// The prewarm version that wrote the report.
    public var version: String
    /// The job names, in run order.
    public var jobs: [String]
    /// When the run started (UTC; millisecond precision in the file).
    public var startedAt: Date
    /// When the run ended.
    public var endedAt: Date
    /// `endedAt - startedAt`, in seconds.
    public var durationSeconds: Double
    /// This run's shard, nil when not sharded (and after a merge).
    public var shard: ShardInfo?
    /// The process exit code (SPEC "Exit codes").
    public var exitCode: Int
    /// Whether SIGINT/SIGTERM stopped the run early.
    public var interrupted: Bool
    /// Totals of the whole run.
    public var totals: Totals
    /// Totals per job, and per group within each job.
    public var jobsDetail: [JobDetail]
    /// `cached` and `blacklisted` counts (both keys always present).
    public var skippedByReason: [String: Int]
    /// Failure reason code (`http_404`, `timeout`, ...) → count.
    public var failedByReason: [String: Int]
    /// Latency of fetched and revalidated URLs.
    public var latencyMs: LatencySummary
    /// The first `failureListLimit` failures, in the order they happened.
    public var failures: [FailureRecord]
    /// Failures left out of `failures` because of the limit.
    public var failuresTruncated: Int

    /// Creates a report from its parts.
    public init(
        version: String, jobs: [String], startedAt: Date, endedAt: Date, durationSeconds: Double,
        shard: ShardInfo?, exitCode: Int, interrupted: Bool, totals: Totals,
        jobsDetail: [JobDetail],
        skippedByReason: [String: Int], failedByReason: [String: Int], latencyMs: LatencySummary,
        failures: [FailureRecord], failuresTruncated: Int
    ) {
        self.version = version
        self.jobs = jobs
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.durationSeconds = durationSeconds
        self.shard = shard
        self.exitCode = exitCode
        self.interrupted = interrupted
        self.totals = totals
        self.jobsDetail = jobsDetail
        self.skippedByReason = skippedByReason
        self.failedByReason = failedByReason
        self.latencyMs = latencyMs
        self.failures = failures
        self.failuresTruncated = failuresTruncated
    }
}

/// One job's part of a report.
public struct JobDetail: Sendable, Hashable, Codable {
    /// The job name.
    public var job: String
    /// The job's totals (the sum of its groups).
    public var totals: Totals
    /// Seconds from the run's start until the job's last URL ended (0 when none ended).
    public var elapsedSeconds: Double
    /// The job's failure reasons → counts (feeds `prewarm_failures_total{job,reason}`).
    public var failedByReason: [String: Int]
    /// The job's groups, in manifest order.
    public var groups: [GroupDetail]

    /// Creates a job detail.
    public init(
        job: String, totals: Totals, elapsedSeconds: Double, failedByReason: [String: Int],
        groups: [GroupDetail]
    ) {
        self.job = job
        self.totals = totals
        self.elapsedSeconds = elapsedSeconds
        self.failedByReason = failedByReason
        self.groups = groups
    }

    enum CodingKeys: String, CodingKey {
        case job, totals, groups
        case elapsedSeconds = "elapsed_seconds"
        case failedByReason = "failed_by_reason"
    }
}

/// One group's part of a report.
public struct GroupDetail: Sendable, Hashable, Codable {
    /// The group name.
    public var group: String
    /// The group's priority (written as its manifest name, e.g. `high`).
    public var priority: Priority
    /// The group's totals.
    public var totals: Totals
    /// Seconds from the run's start until the group's last URL ended (0 when none ended).
    public var elapsedSeconds: Double

    /// Creates a group detail.
    public init(group: String, priority: Priority, totals: Totals, elapsedSeconds: Double) {
        self.group = group
        self.priority = priority
        self.totals = totals
        self.elapsedSeconds = elapsedSeconds
    }

    enum CodingKeys: String, CodingKey {
        case group, priority, totals
        case elapsedSeconds = "elapsed_seconds"
    }

    /// Reads a group; the priority is its manifest name.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        group = try c.decode(String.self, forKey: .group)
        let name = try c.decode(String.self, forKey: .priority)
        guard let priority = Priority(name: name) else {
            throw DecodingError.dataCorruptedError(
                forKey: .priority, in: c, debugDescription: "unknown priority '\(name)'")
        }
        self.priority = priority
        totals = try c.decode(Totals.self, forKey: .totals)
        elapsedSeconds = try c.decode(Double.self, forKey: .elapsedSeconds)
    }

    /// Writes a group with its priority as the manifest name.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(group, forKey: .group)
        try c.encode(priority.name, forKey: .priority)
        try c.encode(totals, forKey: .totals)
        try c.encode(elapsedSeconds, forKey: .elapsedSeconds)
    }
}

/// Latency percentiles in milliseconds, with the histogram they come from (kept so that merging
/// shards is exact).
public struct LatencySummary: Sendable, Hashable, Codable {
    /// Median.
    public var p50: Double
    /// 90th percentile.
    public var p90: Double
    /// 99th percentile.
    public var p99: Double
    /// The slowest URL, exact.
    public var max: Double
    /// The samples, bucketed.
    public var histogram: LatencyHistogram

    /// Summarises a histogram (percentiles are bucket upper bounds, rounded to 3 decimals).
    public init(histogram: LatencyHistogram) {
        self.histogram = histogram
        p50 = LatencyHistogram.roundedForDisplay(histogram.percentile(0.50))
        p90 = LatencyHistogram.roundedForDisplay(histogram.percentile(0.90))
        p99 = LatencyHistogram.roundedForDisplay(histogram.percentile(0.99))
        max = histogram.maximum
    }
}

/// One failed URL in the report's `failures` list.
public struct FailureRecord: Sendable, Hashable, Codable {
    /// The URL as given (already redacted by the pipeline).
    public var url: String
    /// Its job.
    public var job: String
    /// Its group.
    public var group: String
    /// The stable reason code (`http_404`, `timeout`, ...; `unknown` if the pipeline gave none).
    public var reason: String
    /// The last HTTP status seen, if any.
    public var status: Int?
    /// Requests made.
    public var attempts: Int
    /// A human-readable detail, if any.
    public var detail: String?

    /// Creates a failure record.
    public init(
        url: String, job: String, group: String, reason: String, status: Int?, attempts: Int,
        detail: String?
    ) {
        self.url = url
        self.job = job
        self.group = group
        self.reason = reason
        self.status = status
        self.attempts = attempts
        self.detail = detail
    }

    /// The record of a failed result.
    public init(_ result: URLResult) {
        self.init(
            url: result.url, job: result.job, group: result.group,
            reason: result.reason?.code ?? "unknown", status: result.status,
            attempts: result.attempts, detail: result.detail)
    }

    enum CodingKeys: String, CodingKey {
        case url, job, group, reason, status, attempts, detail
    }

    /// Writes every key; `status` and `detail` are `null` when absent, so the shape is fixed.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(url, forKey: .url)
        try c.encode(job, forKey: .job)
        try c.encode(group, forKey: .group)
        try c.encode(reason, forKey: .reason)
        try c.encode(status, forKey: .status)
        try c.encode(attempts, forKey: .attempts)
        try c.encode(detail, forKey: .detail)
    }
}
