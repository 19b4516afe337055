import Foundation
import PrewarmKit
import Testing

/// `prewarm cache ...` on a cache a real run filled.
@Suite struct CacheCommandTests {
    @Test func statsCleanFailedAndClear() async throws {
        let harness = try RunHarness()
        let manifest = try harness.manifest(
            """
            version: 1
            groups:
              - { name: g, urls: ["${ORIGIN}/files/kitty.png", "${ORIGIN}/files/kitty.gif", "${ORIGIN}/files/gone.jpg"] }
            """)
        _ = await harness.run(manifest)
        let (console, captured) = Console.capturing()
        let cli = CommandLineInterface(console: console, environment: [:])

        #expect(await cli.run(["cache", "stats", "--cache", harness.cache]) == 0)
        #expect(captured.out.contains("entries 2"))
        #expect(captured.out.contains("failed-URL list 1"))

        #expect(await cli.run(["cache", "failed", "list", "--cache", harness.cache]) == 0)
        #expect(captured.out.contains("http_404"))
        #expect(captured.out.contains("gone.jpg"))

        // Nothing is older than a day: clean keeps everything; with max-age 0s every entry expires.
        #expect(await cli.run(["cache", "clean", "--max-age", "1d", "--cache", harness.cache]) == 0)
        #expect(harness.cacheFiles().count == 4, "2 bodies + 2 metadata files")
        #expect(await cli.run(["cache", "clean", "--max-age", "0s", "--cache", harness.cache]) == 0)
        #expect(harness.cacheFiles().isEmpty)

        #expect(await cli.run(["cache", "failed", "clear", "--cache", harness.cache]) == 0)
        let rerun = await harness.run(manifest)
        #expect(rerun.totals["fetched"] == 2)
        #expect(rerun.totals["failed"] == 1, "the 404 was tried again after `cache failed clear`")
        #expect(await cli.run(["cache", "clear", "--cache", harness.cache]) == 0)
        #expect(harness.cacheFiles().isEmpty)

        #expect(await cli.run(["cache", "stats", "--cache", harness.directory + "/nowhere"]) == 3)
        #expect(await cli.run(["cache", "bogus", "--cache", harness.cache]) == 2)
    }
}
