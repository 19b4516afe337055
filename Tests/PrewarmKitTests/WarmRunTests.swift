import Foundation
import PrewarmCore
import Testing

/// The warm run end to end, through the real CLI, against a real origin on 127.0.0.1.
@Suite struct WarmRunTests {
    @Test func warmsThenSkipsEverything() async throws {
        let harness = try RunHarness()
        let names = ["flower.jpg", "kitty.png", "kitty.gif", "kitty.webp"]
        let manifest = try harness.manifest(
            """
            version: 1
            job: warm
            groups:
              - name: all
                urls: [\(names.map { "\"${ORIGIN}/files/\($0)\"" }.joined(separator: ", "))]
            """)
        let first = await harness.run(manifest)
        #expect(first.status == 0, "\(first.error)")
        #expect(first.totals["urls"] == 4)
        #expect(first.totals["fetched"] == 4)
        #expect(first.totals["finished"] == 4)
        for name in names {
            let url = harness.url("/files/\(name)")
            let event = try #require(first.event(name))
            let path = try #require(event["path"] as? String)
            // SPEC's layout: v1/<h0h1>/<h2h3>/<sha256(key)>.<ext>
            let hash = SHA256.hex(url)
            let ext = name.split(separator: ".").last.map(String.init).map { $0 == "jpeg" ? "jpg" : $0 }!
            let expected = "\(harness.cache)/v1/\(hash.prefix(2))/\(hash.dropFirst(2).prefix(2))/\(hash).\(ext)"
            #expect(path == expected)
            let stored = try Data(contentsOf: URL(fileURLWithPath: path))
            let served = try Data(contentsOf: URL(fileURLWithPath: RunHarness.fixtures[name]!))
            #expect(stored == served, "\(name) must be byte-identical to what the origin served")
        }
        let requestsAfterFirst = harness.origin.totalRequests

        let second = await harness.run(manifest)
        #expect(second.status == 0)
        #expect(second.totals["cached"] == 4)
        #expect(second.totals["skipped"] == 4)
        #expect(second.totals["fetched"] == 0)
        #expect(harness.origin.totalRequests == requestsAfterFirst, "a warm re-run fetches nothing")
    }

    @Test func notFoundIsBlacklistedThenRetriedOnRequest() async throws {
        let harness = try RunHarness()
        let yaml = { (options: String) in
            """
            version: 1
            groups:
              - name: g
                options: [\(options)]
                urls: ["${ORIGIN}/files/later.jpg"]
            """
        }
        let manifest = try harness.manifest(yaml(""))
        let first = await harness.run(manifest)
        #expect(first.status == 1)
        #expect(first.totals["failed"] == 1)
        #expect(first.event("later.jpg")?["reason"] as? String == "http_404")
        #expect(first.event("later.jpg")?["attempts"] as? Int == 1, "a 404 is permanent: no retries")

        let second = await harness.run(manifest)
        #expect(second.totals["blacklisted"] == 1)
        #expect(harness.origin.requestCount(path: "/files/later.jpg") == 1)

        harness.origin.setFile("later.jpg", contents: Array(try Data(contentsOf: URL(fileURLWithPath: RunHarness.fixtures["flower.jpg"]!))))
        let third = await harness.run(try harness.manifest(yaml("retry_failed")))
        #expect(third.status == 0)
        #expect(third.totals["fetched"] == 1)
        // A success removes the blacklist entry: a plain run now finds it cached.
        let fourth = await harness.run(manifest)
        #expect(fourth.totals["cached"] == 1)
    }

    @Test func transientFailuresAreRetriedAndPermanentOnesAreNot() async throws {
        let harness = try RunHarness()
        let manifest = try harness.manifest(
            """
            version: 1
            defaults:
              retries: 2
              backoff: 10ms
              timeout: 30s
              options: [avoid_decode]
            groups:
              - name: flaky
                urls: ["${ORIGIN}/files/flower.jpg?fail=2&status=503"]
              - name: limited
                urls: ["${ORIGIN}/files/kitty.png?fail=1&status=429&retry_after=1"]
              - name: stalled
                timeout: 1s
                urls: ["${ORIGIN}/files/kitty.gif?stall=1"]
              - name: cut
                urls: ["${ORIGIN}/files/flower.jpg?truncate=1000"]
              - name: html
                urls: ["${ORIGIN}/html"]
              - name: loop
                urls: ["${ORIGIN}/loop/0"]
              - name: escape
                urls: ["${ORIGIN}/redirect?to=file%3A%2F%2F%2Fetc%2Fpasswd"]
              - name: down
                urls: ["${ORIGIN}/status/503"]
            """)
        let run = await harness.run(manifest)
        #expect(run.status == 1)
        let flaky = try #require(run.event("fail=2&status=503"))
        #expect(flaky["outcome"] as? String == "fetched")
        #expect(flaky["attempts"] as? Int == 3)
        let limited = try #require(run.event("retry_after=1"))
        #expect(limited["outcome"] as? String == "fetched")
        #expect((limited["ms"] as? Double ?? 0) >= 1000, "Retry-After: 1 must be honoured")
        #expect(run.event("stall=1")?["reason"] as? String == "timeout")
        #expect(run.event("truncate=1000")?["reason"] as? String == "truncated")
        #expect(run.event("/html")?["reason"] as? String == "not_an_image")
        #expect(run.event("/loop/0")?["reason"] as? String == "too_many_redirects")
        #expect(run.event("passwd")?["reason"] as? String == "blocked_address")
        let down = try #require(run.event("/status/503"))
        #expect(down["reason"] as? String == "http_503")
        #expect(down["attempts"] as? Int == 3, "transient: 1 attempt + 2 retries")
        // Nothing of the truncated body was stored.
        let truncatedKey = harness.url("/files/flower.jpg?truncate=1000")
        let hash = SHA256.hex(truncatedKey)
        #expect(!harness.cacheFiles().contains { $0.contains(hash) })
        #expect(run.totals["fetched"] == 2)
        #expect(run.totals["failed"] == 6)
        #expect(run.totals["finished"] == 8)
    }

    @Test func concurrencyIsNeverExceededAndIdenticalURLsAreFetchedOnce() async throws {
        let harness = try RunHarness()
        let urls = (0..<12).map { "\"${ORIGIN}/files/kitty.png?delay_ms=30&n=\($0)\"" }.joined(separator: ", ")
        let manifest = try harness.manifest(
            """
            version: 1
            defaults:
              concurrency: 3
              options: [avoid_decode]
            groups:
              - name: many
                urls: [\(urls)]
              - name: twice-a
                urls: ["${ORIGIN}/files/flower.jpg?delay_ms=50"]
              - name: twice-b
                urls: ["${ORIGIN}/files/flower.jpg?delay_ms=50"]
            """)
        let run = await harness.run(manifest)
        #expect(run.status == 0, "\(run.error)")
        #expect(harness.origin.maxConcurrentRequests <= 3)
        #expect(harness.origin.maxConcurrentRequests >= 2, "the run should actually overlap requests")
        #expect(harness.origin.requestCount(path: "/files/flower.jpg?delay_ms=50") == 1)
        #expect(run.totals["finished"] == 14)
    }

    @Test func highPriorityFinishesBeforeLowStartsWithOneSlot() async throws {
        let harness = try RunHarness()
        let manifest = try harness.manifest(
            """
            version: 1
            defaults:
              concurrency: 1
              options: [avoid_decode]
            groups:
              - name: low
                priority: low
                urls: ["${ORIGIN}/files/kitty.png?low=1", "${ORIGIN}/files/kitty.gif?low=2"]
              - name: high
                priority: high
                urls: ["${ORIGIN}/files/kitty.png?high=1", "${ORIGIN}/files/kitty.gif?high=2"]
            """)
        let run = await harness.run(manifest)
        #expect(run.status == 0)
        let order = harness.origin.recordedRequests().map(\.target)
        #expect(order == ["/files/kitty.png?high=1", "/files/kitty.gif?high=2", "/files/kitty.png?low=1", "/files/kitty.gif?low=2"])
    }

    @Test func manifestErrorsAreAllReportedAndNothingIsFetched() async throws {
        let harness = try RunHarness()
        let manifest = try harness.manifest(
            """
            version: 1
            defaults:
              concurency: 3
              timeout: fast
            groups:
              - name: a
                priority: urgent
                urls: ["not a url"]
              - name: b
                urls: []
            """)
        let run = await harness.run(manifest)
        #expect(run.status == 2)
        let issues = run.error.split(separator: "\n").filter { $0.hasPrefix(manifest + ":") }
        #expect(issues.count == 5, "\(run.error)")
        #expect(run.error.contains("\(manifest):3:3:"))
        #expect(harness.origin.totalRequests == 0)
    }
}
