import Foundation
import PrewarmCore
import Testing

@testable import PrewarmReport

@Suite struct PrometheusWriterTests {
    /// A sample line of the text format: `name{label="value",...} value`.
    private let sampleLine = try! Regex(
        #"^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\[\\"n])*")(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\[\\"n])*")*\})? -?[0-9]+(\.[0-9]+)?$"#
    )

    private func samples(_ text: String, _ name: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter {
            $0.hasPrefix(name + "{") || $0.hasPrefix(name + " ")
        }
    }

    @Test func everyLineParsesAndEveryOutcomeIsPresent() throws {
        let report = Fixtures.report()
        let text = PrometheusWriter.render(report)
        #expect(text.hasSuffix("\n"))
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("#") {
                #expect(line.hasPrefix("# HELP prewarm_") || line.hasPrefix("# TYPE prewarm_"))
            } else {
                #expect(line.wholeMatch(of: sampleLine) != nil, "bad line: \(line)")
            }
        }
        // 3 groups × 7 outcomes, zeros included.
        #expect(samples(text, "prewarm_urls_total").count == 21)
        #expect(
            text.contains(
                #"prewarm_urls_total{job="catalog",group="catalog",outcome="revalidated"} 0"#))
        #expect(
            text.contains(#"prewarm_urls_total{job="catalog",group="home",outcome="fetched"} 1"#))
        #expect(text.contains(#"prewarm_bytes_downloaded_total{job="catalog"} 3000"#))
        #expect(text.contains(#"prewarm_bytes_written_total{job="avatars"} 600"#))
        #expect(text.contains(#"prewarm_variants_written_total{job="catalog"} 3"#))
        #expect(text.contains(#"prewarm_run_duration_seconds{job="catalog"} 12.500"#))
        #expect(text.contains(#"prewarm_last_run_timestamp_seconds{job="avatars"} 1700000012.500"#))
        #expect(text.contains(#"prewarm_failures_total{job="catalog",reason="http_404"} 1"#))
        #expect(text.contains(#"prewarm_failures_total{job="avatars",reason="tls"} 1"#))
        #expect(text.contains("# TYPE prewarm_urls_total counter"))
        #expect(text.contains("# TYPE prewarm_last_success_timestamp_seconds gauge"))
        // Both jobs had failures and nothing came before: no last-success sample.
        #expect(samples(text, "prewarm_last_success_timestamp_seconds").isEmpty)
    }

    @Test func labelValuesAreEscapedAndReadBack() {
        let job = "we\"ird\\job\nx"
        let plan = RunPlan(
            jobs: [
                JobPlan(name: job, groups: [GroupPlan(name: "g", priority: .normal, urlCount: 1)])
            ],
            startedAt: Fixtures.start)
        let report = Fixtures.report(
            plan: plan, results: [URLResult(url: "u", job: job, group: "g", outcome: .fetched)])
        let text = PrometheusWriter.render(report)
        #expect(text.contains(#"prewarm_bytes_downloaded_total{job="we\"ird\\job\nx"} 0"#))
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(String(line).wholeMatch(of: sampleLine) != nil, "bad line: \(line)")
        }
        #expect(PrometheusWriter.lastSuccessTimes(in: text) == [job: 1_700_000_012.5])
    }

    @Test func lastSuccessIsCarriedOverOnFailureAndUpdatedOnSuccess() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("prewarm.prom").path
        let plan = RunPlan(
            jobs: [
                JobPlan(
                    name: "catalog", groups: [GroupPlan(name: "home", priority: .high, urlCount: 1)]
                )
            ],
            startedAt: Fixtures.start)
        func run(_ outcome: Outcome, endingAt seconds: Double, interrupted: Bool = false) throws
            -> String
        {
            let result = URLResult(
                url: "u", job: "catalog", group: "home", outcome: outcome,
                reason: outcome == .failed ? .timeout : nil)
            let report = Fixtures.recorder(plan: plan, results: [result]).report(
                version: "t", interrupted: interrupted,
                endedAt: Date(timeIntervalSince1970: seconds))
            try PrometheusWriter.write(report, to: path)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["prewarm.prom"]
            )
            return try String(contentsOfFile: path, encoding: .utf8)
        }
        let first = try run(.fetched, endingAt: 1_700_000_100)
        #expect(
            first.contains(#"prewarm_last_success_timestamp_seconds{job="catalog"} 1700000100"#))
        let failed = try run(.failed, endingAt: 1_700_000_200)
        #expect(
            failed.contains(#"prewarm_last_success_timestamp_seconds{job="catalog"} 1700000100"#))
        #expect(failed.contains(#"prewarm_last_run_timestamp_seconds{job="catalog"} 1700000200"#))
        let interrupted = try run(.cached, endingAt: 1_700_000_250, interrupted: true)
        #expect(
            interrupted.contains(
                #"prewarm_last_success_timestamp_seconds{job="catalog"} 1700000100"#))
        let again = try run(.cached, endingAt: 1_700_000_300)
        #expect(
            again.contains(#"prewarm_last_success_timestamp_seconds{job="catalog"} 1700000300"#))
    }

    @Test func aHandEditedPreviousFileDoesNotStopTheWrite() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("prewarm.prom").path
        try "garbage {{{\nprewarm_last_success_timestamp_seconds{job=\"avatars\"} 42\n"
            .write(toFile: path, atomically: false, encoding: .utf8)
        try PrometheusWriter.write(Fixtures.report(), to: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#"prewarm_last_success_timestamp_seconds{job="avatars"} 42"#))
        #expect(!text.contains("garbage"))
    }
}
