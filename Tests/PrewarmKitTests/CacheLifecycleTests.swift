import Foundation
import PrewarmCore
import PrewarmKit
import Testing

/// The cache as a lasting store, end to end: revalidation, modes, key rules, verify, max_size.
@Suite struct CacheLifecycleTests {
    private func bytes(_ fixture: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: RunHarness.fixtures[fixture]!)))
    }

    @Test func refreshCachedRevalidatesUnchangedFilesAndRefetchesChangedOnes() async throws {
        let harness = try RunHarness()
        harness.origin.setFile("photo.png", contents: try bytes("kitty.png"))
        let yaml = { (options: String) in
            """
            version: 1
            defaults:
              options: [\(options)]
              variants:
                - { name: small, width: 16, format: png }
            groups:
              - { name: g, urls: ["${ORIGIN}/files/photo.png"] }
            """
        }
        let plain = try harness.manifest(yaml(""), name: "plain.yaml")
        let refresh = try harness.manifest(yaml("refresh_cached"), name: "refresh.yaml")
        let first = await harness.run(plain)
        #expect(first.totals["fetched"] == 1)
        #expect(first.totals["variants_written"] == 1)
        let variantPath = try #require((first.event("photo.png")?["variants"] as? [String: String])?["small"])
        let firstVariant = try Data(contentsOf: URL(fileURLWithPath: variantPath))

        harness.origin.resetCounters()
        let second = await harness.run(refresh)
        #expect(second.totals["revalidated"] == 1, "\(second.error)")
        #expect(second.totals["bytes_downloaded"] == 0, "a 304 carries no body")
        let request = try #require(harness.origin.recordedRequests().first)
        #expect(request.headers["if-none-match"] != nil)

        harness.origin.setFile("photo.png", contents: try bytes("kitty-alpha.png"))
        let third = await harness.run(refresh)
        #expect(third.totals["fetched"] == 1)
        #expect(third.totals["variants_written"] == 1)
        let stored = try Data(contentsOf: URL(fileURLWithPath: try #require(third.event("photo.png")?["path"] as? String)))
        #expect(Array(stored) == (try bytes("kitty-alpha.png")), "the changed file replaced the old one")
        #expect(try Data(contentsOf: URL(fileURLWithPath: variantPath)) != firstVariant, "its variant was regenerated")
    }

    @Test func fromCacheOnlyAuditsAndFromLoaderOnlyAlwaysFetches() async throws {
        let harness = try RunHarness()
        let warm = try harness.manifest(
            """
            version: 1
            groups:
              - { name: g, urls: ["${ORIGIN}/files/kitty.png"] }
            """, name: "warm.yaml")
        _ = await harness.run(warm)
        let audit = try harness.manifest(
            """
            version: 1
            defaults: { options: [from_cache_only] }
            groups:
              - { name: g, urls: ["${ORIGIN}/files/kitty.png", "${ORIGIN}/files/kitty.gif"] }
            """, name: "audit.yaml")
        harness.origin.resetCounters()
        let audited = await harness.run(audit)
        #expect(audited.status == 0)
        #expect(audited.totals["cached"] == 1)
        #expect(audited.totals["missing"] == 1)
        #expect(harness.origin.totalRequests == 0, "from_cache_only fetches nothing")

        let force = try harness.manifest(
            """
            version: 1
            defaults: { options: [from_loader_only] }
            groups:
              - { name: g, urls: ["${ORIGIN}/files/kitty.png"] }
            """, name: "force.yaml")
        let forced = await harness.run(force)
        #expect(forced.totals["fetched"] == 1)
        #expect(harness.origin.requestCount(path: "/files/kitty.png") == 1)
    }

    @Test func signedURLsShareOneEntry() async throws {
        let harness = try RunHarness()
        let manifest = try harness.manifest(
            """
            version: 1
            cache:
              key: { drop_query_params: [sig, Expires] }
            defaults: { concurrency: 1 }
            groups:
              - name: g
                urls:
                  - "${ORIGIN}/files/kitty.png?size=s&sig=abc&Expires=1"
                  - "${ORIGIN}/files/kitty.png?size=s&sig=def&Expires=2"
                  - "${ORIGIN}/files/kitty.png?size=m&sig=ghi"
            """)
        let run = await harness.run(manifest)
        #expect(run.totals["fetched"] == 2)
        #expect(run.totals["cached"] == 1, "the second signed URL is the first one's entry")
        let (console, captured) = Console.capturing()
        let status = await CommandLineInterface(console: console, environment: ["ORIGIN": harness.origin.baseURL]).run(
            ["cache", "path", harness.url("/files/kitty.png?size=s&sig=zzz"), "--cache", harness.cache, "--manifest", manifest])
        #expect(status == 0)
        let key = harness.url("/files/kitty.png?size=s")
        #expect(captured.out.contains(SHA256.hex(key) + ".png"))
    }

    @Test func verifyFindsAHandCorruptedFileAndFixRemovesIt() async throws {
        let harness = try RunHarness()
        let manifest = try harness.manifest(
            """
            version: 1
            groups:
              - { name: g, urls: ["${ORIGIN}/files/kitty.png", "${ORIGIN}/files/flower.jpg"] }
            """)
        let run = await harness.run(manifest)
        let victim = try #require(run.event("flower.jpg")?["path"] as? String)
        let handle = try #require(FileHandle(forUpdatingAtPath: victim))
        try handle.seek(toOffset: 1000)
        handle.write(Data([0x00, 0x11, 0x22, 0x33]))
        try handle.close()

        let (console, captured) = Console.capturing()
        let cli = CommandLineInterface(console: console, environment: [:])
        #expect(await cli.run(["cache", "verify", "--cache", harness.cache]) == 1)
        #expect(captured.out.contains(victim), "verify names the corrupt file")
        #expect(!captured.out.contains(try #require(run.event("kitty.png")?["path"] as? String)))
        #expect(await cli.run(["cache", "verify", "--cache", harness.cache, "--fix"]) == 0)
        #expect(!FileManager.default.fileExists(atPath: victim))
        #expect(await cli.run(["cache", "verify", "--cache", harness.cache]) == 0)
        // A re-run puts it back.
        let again = await harness.run(manifest)
        #expect(again.totals["fetched"] == 1)
        #expect(again.totals["cached"] == 1)
    }

    @Test func maxSizeHoldsAtTheEndOfTheRun() async throws {
        let harness = try RunHarness()
        let flower = try bytes("flower.jpg")  // 80,905 bytes
        let urls = (0..<12).map { "\"${ORIGIN}/files/copy-\($0).jpg\"" }.joined(separator: ", ")
        for index in 0..<12 { harness.origin.setFile("copy-\(index).jpg", contents: flower) }
        let manifest = try harness.manifest(
            """
            version: 1
            cache: { max_size: 300KB }
            defaults: { options: [avoid_decode] }
            groups:
              - { name: g, urls: [\(urls)] }
            """)
        let run = await harness.run(manifest)
        #expect(run.totals["fetched"] == 12)
        let total = harness.cacheFiles().reduce(Int64(0)) { sum, path in
            sum + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? 0)
        }
        #expect(total <= 300_000, "cache holds \(total) bytes after the run")
        #expect(total > 0)
    }
}
