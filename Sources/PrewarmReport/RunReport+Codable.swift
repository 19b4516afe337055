import Foundation

extension RunReport: Codable {
    enum CodingKeys: String, CodingKey {
        case schema, version, jobs, shard, totals, failures, interrupted
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case durationSeconds = "duration_seconds"
        case exitCode = "exit_code"
        case jobsDetail = "jobs_detail"
        case skippedByReason = "skipped_by_reason"
        case failedByReason = "failed_by_reason"
        case latencyMs = "latency_ms"
        case failuresTruncated = "failures_truncated"
    }

    /// Reads a report. The schema is checked first, so a file that is some other JSON fails with
    /// "not a prewarm report" rather than a missing-key error.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let schema = try c.decodeIfPresent(String.self, forKey: .schema)
        guard schema == RunReport.schemaName else {
            throw ReportLoadError.Problem.notAReport(schema: schema)
        }
        self.schema = RunReport.schemaName
        version = try c.decode(String.self, forKey: .version)
        jobs = try c.decode([String].self, forKey: .jobs)
        startedAt = try Self.decodeDate(c, .startedAt)
        endedAt = try Self.decodeDate(c, .endedAt)
        durationSeconds = try c.decode(Double.self, forKey: .durationSeconds)
        shard = try c.decodeIfPresent(ShardInfo.self, forKey: .shard)
        exitCode = try c.decode(Int.self, forKey: .exitCode)
        interrupted = try c.decode(Bool.self, forKey: .interrupted)
        totals = try c.decode(Totals.self, forKey: .totals)
        jobsDetail = try c.decode([JobDetail].self, forKey: .jobsDetail)
        skippedByReason = try c.decode([String: Int].self, forKey: .skippedByReason)
        failedByReason = try c.decode([String: Int].self, forKey: .failedByReason)
        latencyMs = try c.decode(LatencySummary.self, forKey: .latencyMs)
        failures = try c.decode([FailureRecord].self, forKey: .failures)
        failuresTruncated = try c.decodeIfPresent(Int.self, forKey: .failuresTruncated) ?? 0
    }

    /// Writes every key; `shard` is `null` when the run was not sharded.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(schema, forKey: .schema)
        try c.encode(version, forKey: .version)
        try c.encode(jobs, forKey: .jobs)
        try c.encode(Timestamp.string(from: startedAt), forKey: .startedAt)
        try c.encode(Timestamp.string(from: endedAt), forKey: .endedAt)
        try c.encode(durationSeconds, forKey: .durationSeconds)
        try c.encode(shard, forKey: .shard)
        try c.encode(exitCode, forKey: .exitCode)
        try c.encode(interrupted, forKey: .interrupted)
        try c.encode(totals, forKey: .totals)
        try c.encode(jobsDetail, forKey: .jobsDetail)
        try c.encode(skippedByReason, forKey: .skippedByReason)
        try c.encode(failedByReason, forKey: .failedByReason)
        try c.encode(latencyMs, forKey: .latencyMs)
        try c.encode(failures, forKey: .failures)
        try c.encode(failuresTruncated, forKey: .failuresTruncated)
    }

    private static func decodeDate(
        _ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys
    ) throws -> Date {
        let text = try c.decode(String.self, forKey: key)
        guard let date = Timestamp.date(from: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: c, debugDescription: "'\(text)' is not an ISO 8601 time")
        }
        return date
    }
}
