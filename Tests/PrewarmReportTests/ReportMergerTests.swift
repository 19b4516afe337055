import Foundation
import PrewarmCore
import Testing

@testable import PrewarmReport

@Suite struct ReportMergerTests {
    /// Splits the fixture run into two shards the way `--shard K/2` would: each shard's plan
    /// counts the URLs it got.
    private func shards() -> (RunReport, RunReport) {
        let halves = [Array(Fixtures.results.prefix(6)), Array(Fixtures.results.dropFirst(6))]
        let reports = halves.enumerated().map { index, results in
            var plan = Fixtures.plan
            plan.shard = ShardInfo(index: index, count: 2)
            for j in plan.jobs.indices {
                for g in plan.jobs[j].groups.indices {
                    let job = plan.jobs[j].name
                    let group = plan.jobs[j].groups[g].name
                    plan.jobs[j].groups[g].urlCount =
                        results.filter { $0.job == job && $0.group == group }.count
                }
            }
            // The combined plan has one URL of catalog/catalog that never ended: give it to shard 1.
            if index == 1 { plan.jobs[0].groups[1].urlCount += 1 }
            let end = index == 0 ? Fixtures.start.addingTimeInterval(7) : Fixtures.end
            return Fixtures.recorder(plan: plan, results: results).report(
                version: "1.0.0", endedAt: end)
        }
        return (reports[0], reports[1])
    }

    @Test func mergingShardsEqualsOneRunOfAllResults() throws {
        let (a, b) = shards()
        #expect(a.shard == ShardInfo(index: 0, count: 2))
        let merged = try ReportMerger.merge([a, b])
        let combined = Fixtures.report()
        #expect(merged == combined)
        #expect(merged.shard == nil)
        #expect(merged.latencyMs.histogram.count == 4)
    }

    @Test func mergingReportFilesIsExact() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (a, b) = shards()
        let pathA = folder.appendingPathComponent("shard-0.json").path
        let pathB = folder.appendingPathComponent("shard-1.json").path
        try ReportWriter.write(a, to: pathA)
        try ReportWriter.write(b, to: pathB)
        let merged = try ReportMerger.merge([
            try RunReport.load(path: pathA), try RunReport.load(path: pathB),
        ])
        #expect(try ReportWriter.encode(merged) == ReportWriter.encode(Fixtures.report()))
    }

    @Test func failuresAreConcatenatedAndCapped() throws {
        let many = (0..<700).map {
            URLResult(
                url: "https://x/\($0)", job: "catalog", group: "home", outcome: .failed,
                reason: .connect)
        }
        let a = Fixtures.report(results: many)
        let merged = try ReportMerger.merge([a, a])
        #expect(merged.failures.count == 1000)
        #expect(merged.failuresTruncated == 400)
        #expect(merged.failedByReason["connect"] == 1400)
    }

    @Test func exitCodesMergeBySeverity() {
        #expect(ReportMerger.mostSevere([0, 1, 0]) == 1)
        #expect(ReportMerger.mostSevere([1, 130]) == 130)
        #expect(ReportMerger.mostSevere([130, 143]) == 143)
        #expect(ReportMerger.mostSevere([143, 4]) == 4)
        #expect(ReportMerger.mostSevere([4, 2, 1]) == 2)
        #expect(ReportMerger.mostSevere([1, 3, 2, 130]) == 3)
        #expect(ReportMerger.mostSevere([0, 0]) == 0)
    }

    @Test func duplicateOrMismatchedShardsAreRefused() {
        let (a, b) = shards()
        #expect(
            throws: ReportMerger.MergeError.duplicateShard(index: 0, count: 2, reports: [0, 2])
        ) {
            try ReportMerger.merge([a, b, a])
        }
        var other = b
        other.shard = ShardInfo(index: 1, count: 3)
        #expect(throws: ReportMerger.MergeError.mismatchedShardCounts([2, 3])) {
            try ReportMerger.merge([a, other])
        }
        #expect(throws: ReportMerger.MergeError.noReports) { try ReportMerger.merge([]) }
    }

    @Test func aNonReportFileIsRejectedByName() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("metrics.json").path
        try #"{"data": [1, 2, 3]}"#.write(toFile: path, atomically: false, encoding: .utf8)
        #expect {
            _ = try RunReport.load(path: path)
        } throws: { error in
            "\(error)" == "\(path): not a prewarm report (no \"schema\": \"prewarm.report/v1\")"
        }
    }
}
