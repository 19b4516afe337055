import Foundation
import PrewarmCore
import Testing

@testable import PrewarmReport

@Suite struct RecorderTests {
    @Test func totalsPerGroupJobAndRunAreExact() throws {
        let report = Fixtures.report()
        let catalog = try #require(report.jobsDetail.first { $0.job == "catalog" })
        let home = try #require(catalog.groups.first { $0.group == "home" })
        let catalogGroup = try #require(catalog.groups.first { $0.group == "catalog" })
        let avatars = try #require(report.jobsDetail.first { $0.job == "avatars" })

        #expect(
            home.totals
                == Fixtures.totals(
                    urls: 4, fetched: 1, revalidated: 1, cached: 1, failed: 1, variants: 2,
                    down: 1000, written: 1500))
        #expect(home.totals.finished == 4)
        #expect(home.totals.skipped == 1)
        #expect(home.priority == .high)
        #expect(
            catalogGroup.totals
                == Fixtures.totals(
                    urls: 6, fetched: 1, blacklisted: 1, missing: 1, failed: 1, cancelled: 1,
                    variants: 1,
                    down: 2000, written: 2500))
        #expect(catalogGroup.totals.finished == 5)
        #expect(catalogGroup.totals.skipped == 1)
        #expect(
            catalog.totals
                == Fixtures.totals(
                    urls: 10, fetched: 2, revalidated: 1, cached: 1, blacklisted: 1, missing: 1,
                    failed: 2,
                    cancelled: 1, variants: 3, down: 3000, written: 4000))
        #expect(
            avatars.totals
                == Fixtures.totals(
                    urls: 3, fetched: 1, cached: 1, failed: 1, down: 500, written: 600))
        #expect(
            report.totals
                == Fixtures.totals(
                    urls: 13, fetched: 3, revalidated: 1, cached: 2, blacklisted: 1, missing: 1,
                    failed: 3,
                    cancelled: 1, variants: 3, down: 3500, written: 4600))
        #expect(report.totals.finished == 12)
        #expect(report.totals.skipped == 3)

        #expect(report.skippedByReason == ["cached": 2, "blacklisted": 1])
        #expect(report.failedByReason == ["http_404": 1, "timeout": 1, "tls": 1])
        #expect(catalog.failedByReason == ["http_404": 1, "timeout": 1])
        #expect(report.jobs == ["catalog", "avatars"])
        #expect(report.exitCode == 1)
        #expect(report.durationSeconds == 12.5)
        #expect(home.elapsedSeconds == 3)
        #expect(report.failures.map(\.reason) == ["http_404", "timeout", "tls"])
        #expect(report.failures[1].attempts == 3)
        #expect(report.failures[0].status == 404)
    }

    @Test func latencyCoversOnlyFetchedAndRevalidated() {
        let latency = Fixtures.report().latencyMs
        // Samples 10, 20, 40 (fetched), 30 (fetched), 20 (revalidated): failures' 5, 50 and
        // 15000 ms are not latency of a successful fetch.
        #expect(latency.histogram.count == 4)
        #expect(latency.max == 40)
        #expect(latency.p50 >= 20 && latency.p50 <= 20 * 1.0906)
        #expect(latency.p99 == 40)
    }

    @Test func histogramPercentilesAreWithinOneBucket() {
        var histogram = LatencyHistogram()
        for ms in 1...1000 { histogram.record(Double(ms)) }
        #expect(histogram.count == 1000)
        #expect(histogram.counts.count < 100)
        for (fraction, exact) in [(0.5, 500.0), (0.9, 900.0), (0.99, 990.0)] {
            let value = histogram.percentile(fraction)
            #expect(value >= exact && value <= exact * 1.0906, "p\(fraction) = \(value)")
        }
        #expect(histogram.percentile(1) == 1000)
        #expect(LatencyHistogram().percentile(0.5) == 0)
    }

    @Test func resultsOutsideThePlanAreCountedNotDropped() {
        let extra = URLResult(url: "https://x/1.jpg", job: "other", group: "g", outcome: .fetched)
        let report = Fixtures.report(results: [extra])
        let other = report.jobsDetail.first { $0.job == "other" }
        #expect(other?.totals.urls == 1)
        #expect(other?.totals.fetched == 1)
        #expect(report.totals.urls == 14)
    }

    @Test func failureListIsCappedAndCountsTheRest() {
        let failures = (0..<1005).map {
            URLResult(
                url: "https://x/\($0).jpg", job: "catalog", group: "home", outcome: .failed,
                reason: .dns)
        }
        let report = Fixtures.report(results: failures)
        #expect(report.failures.count == RunReport.failureListLimit)
        #expect(report.failuresTruncated == 5)
        #expect(report.failedByReason["dns"] == 1005)
        #expect(SummaryRenderer.render(report).contains("the report lists the first 1000"))
    }

    @Test func concurrentRecordingLosesNothing() {
        let recorder = RunRecorder(plan: Fixtures.plan)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for i in 0..<500 {
                recorder.record(
                    URLResult(
                        url: "https://x/\(thread)/\(i)", job: "catalog", group: "home",
                        outcome: .fetched,
                        bytesDownloaded: 1, milliseconds: Double(i)))
            }
        }
        let report = recorder.report(version: "t")
        #expect(report.totals.fetched == 4000)
        #expect(report.totals.bytesDownloaded == 4000)
        #expect(report.latencyMs.histogram.count == 4000)
        #expect(report.exitCode == 0)
    }

    @Test func interruptedRunDerivesExitCode130() {
        let report = Fixtures.recorder().report(version: "t", interrupted: true)
        #expect(report.exitCode == 130)
        #expect(report.interrupted)
    }
}
