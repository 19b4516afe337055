import Foundation
import Glibc
import PrewarmCache
import Testing

/// Exit codes that need more than an origin: signals, locks, an unusable cache.
@Suite struct RunExitTests {
    private func slowManifest(_ harness: RunHarness, count: Int) throws -> String {
        let urls = (0..<count).map { "\"${ORIGIN}/files/kitty.png?hold-me=\($0)\"" }.joined(separator: ", ")
        return try harness.manifest(
            """
            version: 1
            job: slow
            defaults:
              concurrency: 2
              options: [avoid_decode]
            groups:
              - name: slow
                urls: [\(urls)]
            """)
    }

    @Test func sigintStopsCleanlyWithAPartialReport() async throws {
        let harness = try RunHarness()
        let manifest = try slowManifest(harness, count: 6)
        harness.origin.hold(marker: "hold-me")
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("prewarm").path
        #expect(FileManager.default.isExecutableFile(atPath: binary), "swift test builds the prewarm executable beside the tests")
        let report = harness.directory + "/interrupted.json"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["run", manifest, "--cache", harness.cache, "--report", report, "--progress", "none"]
        process.environment = ["ORIGIN": harness.origin.baseURL, "HOME": harness.directory]
        process.standardError = FileHandle.nullDevice
        try process.run()
        let origin = harness.origin
        #expect(await onThread { origin.waitForHeld(count: 2, timeout: 20) }, "two requests in flight before the signal")
        kill(process.processIdentifier, SIGINT)
        await onThread { process.waitUntilExit() }
        harness.origin.release(marker: "hold-me")
        #expect(process.terminationStatus == 130)
        let data = try Data(contentsOf: URL(fileURLWithPath: report))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let totals = try #require(json["totals"] as? [String: Int])
        #expect(json["interrupted"] as? Bool == true)
        #expect(totals["urls"] == 6)
        #expect(totals["finished"] == 6, "every URL ends in exactly one outcome")
        #expect(totals["cancelled"] == 6)
        // Nothing half-written: no body without metadata, no temp file left behind.
        #expect(harness.cacheFiles().isEmpty)
        let temp = (try? FileManager.default.contentsOfDirectory(atPath: harness.cache + "/tmp")) ?? []
        #expect(temp.isEmpty)
    }

    @Test func aSecondRunOfTheSameJobExitsFour() async throws {
        let harness = try RunHarness()
        let manifest = try slowManifest(harness, count: 1)
        let cache = try DiskCache(root: harness.cache)
        let lock = try cache.lockJob("slow")
        let run = await harness.run(manifest)
        #expect(run.status == 4)
        #expect(run.error.contains("slow"))
        #expect(harness.origin.totalRequests == 0)
        lock.release()
    }

    @Test func anUnusableCacheExitsThree() async throws {
        let harness = try RunHarness()
        let manifest = try slowManifest(harness, count: 1)
        let blocker = harness.directory + "/not-a-folder"
        try "x".write(toFile: blocker, atomically: true, encoding: .utf8)
        let run = await harness.run(manifest, ["--cache", blocker + "/cache"])
        #expect(run.status == 3)
        #expect(run.error.contains(blocker))
        #expect(harness.origin.totalRequests == 0)
    }
}
