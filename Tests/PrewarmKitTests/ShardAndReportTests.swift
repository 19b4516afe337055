import Foundation
import PrewarmKit
import Testing

/// Sharding, `report merge`, `--metrics` and `--dry-run` through the CLI.
@Suite struct ShardAndReportTests {
    @Test func shardsSplitTheJobAndMergeToOneRun() async throws {
        let harness = try RunHarness()
        let urls = (0..<24).map { "\"${ORIGIN}/files/kitty.png?n=\($0)\"" }.joined(separator: ", ")
        let manifest = try harness.manifest(
            """
            version: 1
            job: sharded
            defaults: { options: [avoid_decode] }
            groups:
              - { name: g, urls: [\(urls)] }
            """)
        var reports: [String] = []
        for index in 0..<3 {
            let report = harness.directory + "/shard-\(index).json"
            let (console, _) = Console.capturing()
            let cli = CommandLineInterface(
                console: console,
                environment: ["ORIGIN": harness.origin.baseURL, "JOB_COMPLETION_INDEX": String(index)],
                handleSignals: false)
            let metrics = harness.directory + "/shard-\(index).prom"
            let status = await cli.run([
                "run", manifest, "--shards", "3", "--cache", harness.cache, "--report", report,
                "--metrics", metrics, "--progress", "none",
            ])
            #expect(status == 0)
            let text = try String(contentsOfFile: metrics, encoding: .utf8)
            #expect(text.contains("prewarm_urls_total{job=\"sharded\",group=\"g\",outcome=\"fetched\"}"))
            reports.append(report)
        }
        #expect(harness.origin.totalRequests == 24, "every URL fetched by exactly one shard")

        let merged = harness.directory + "/merged.json"
        let (console, captured) = Console.capturing()
        let status = await CommandLineInterface(console: console, environment: [:]).run(
            ["report", "merge"] + reports + ["-o", merged])
        #expect(status == 0, "\(captured.error)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: merged))) as? [String: Any])
        let totals = try #require(json["totals"] as? [String: Int])
        #expect(totals["urls"] == 24)
        #expect(totals["fetched"] == 24)
        #expect(json["schema"] as? String == "prewarm.report/v1")
    }

    @Test func dryRunPrintsThePlanAndFetchesNothing() async throws {
        let harness = try RunHarness()
        let manifest = try harness.manifest(
            """
            version: 1
            job: planned
            defaults:
              variants: [{ name: thumb, width: 320, height: 320, fit: cover, format: webp, quality: 80 }]
            groups:
              - { name: low, priority: low, urls: ["${ORIGIN}/files/kitty.png"] }
              - { name: top, priority: very_high, urls: ["https://user:secret@${ORIGIN_HOST}/a.jpg"] }
            """)
        let (console, captured) = Console.capturing()
        let cli = CommandLineInterface(
            console: console, environment: ["ORIGIN": harness.origin.baseURL, "ORIGIN_HOST": "127.0.0.1:1"],
            handleSignals: false)
        let status = await cli.run(["run", manifest, "--dry-run", "--cache", harness.cache])
        #expect(status == 0)
        #expect(captured.out.contains("variant thumb: w320h320-cover-webp-q80"))
        let top = try #require(captured.out.range(of: "group top"))
        let low = try #require(captured.out.range(of: "group low"))
        #expect(top.lowerBound < low.lowerBound, "groups are listed in scheduling order")
        #expect(!captured.out.contains("secret"), "credentials in URLs are redacted")
        #expect(harness.origin.totalRequests == 0)
    }
}
