import Foundation
import PrewarmCore
import Synchronization

@testable import PrewarmReport

/// A crafted run: two jobs, three groups, every outcome at least once.
enum Fixtures {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let end = start.addingTimeInterval(12.5)
    static let oddURL = "https://***@cdn.example.com/a b/é.jpg?x=1&y=\"q\""

    static let plan = RunPlan(
        jobs: [
            JobPlan(
                name: "catalog",
                groups: [
                    GroupPlan(name: "home", priority: .high, urlCount: 4),
                    GroupPlan(name: "catalog", priority: .low, urlCount: 6),
                ]),
            JobPlan(
                name: "avatars", groups: [GroupPlan(name: "users", priority: .normal, urlCount: 3)]),
        ], shard: nil, startedAt: start)

    static let results: [URLResult] = [
        URLResult(
            url: "https://cdn.example.com/hero.jpg", job: "catalog", group: "home",
            outcome: .fetched,
            status: 200, attempts: 1, bytesDownloaded: 1000, bytesWritten: 1500, milliseconds: 10,
            path: "/c/v1/aa/bb/hero.jpg",
            variants: [
                NamedPath(name: "thumb", path: "/c/v1/cc/dd/t.webp"),
                NamedPath(name: "big", path: "/c/b.jpg"),
            ],
            variantsWritten: 2),
        URLResult(
            url: "https://cdn.example.com/logo.png", job: "catalog", group: "home",
            outcome: .revalidated,
            status: 304, attempts: 1, milliseconds: 20, path: "/c/logo.png"),
        URLResult(
            url: "https://cdn.example.com/bg.jpg", job: "catalog", group: "home", outcome: .cached,
            path: "/c/bg.jpg"),
        URLResult(
            url: "https://cdn.example.com/gone.jpg", job: "catalog", group: "home",
            outcome: .failed,
            reason: .http(404), status: 404, attempts: 1, bytesDownloaded: 0, milliseconds: 5,
            detail: "Not Found"),
        URLResult(
            url: "https://cdn.example.com/bad.jpg", job: "catalog", group: "catalog",
            outcome: .blacklisted),
        URLResult(
            url: "https://cdn.example.com/nope.jpg", job: "catalog", group: "catalog",
            outcome: .missing),
        URLResult(
            url: "https://slow.example.com/s.jpg", job: "catalog", group: "catalog",
            outcome: .failed,
            reason: .timeout, attempts: 3, milliseconds: 15000,
            detail: "Operation timed out\nafter 5000 ms"),
        URLResult(
            url: "https://cdn.example.com/later.jpg", job: "catalog", group: "catalog",
            outcome: .cancelled),
        URLResult(
            url: "https://cdn.example.com/p/1.jpg", job: "catalog", group: "catalog",
            outcome: .fetched,
            status: 200, attempts: 2, bytesDownloaded: 2000, bytesWritten: 2500, milliseconds: 40,
            path: "/c/p1.jpg", variantsWritten: 1),
        URLResult(
            url: oddURL, job: "avatars", group: "users", outcome: .fetched, status: 200,
            attempts: 1,
            bytesDownloaded: 500, bytesWritten: 600, milliseconds: 30, path: "/c/odd.jpg"),
        URLResult(
            url: "https://tls.example.com/x.jpg", job: "avatars", group: "users", outcome: .failed,
            reason: .tls, attempts: 3, milliseconds: 50, detail: "SSL certificate problem"),
        URLResult(
            url: "https://cdn.example.com/u2.jpg", job: "avatars", group: "users", outcome: .cached),
    ]

    static func totals(
        urls: Int, fetched: Int = 0, revalidated: Int = 0, cached: Int = 0, blacklisted: Int = 0,
        missing: Int = 0, failed: Int = 0, cancelled: Int = 0, variants: Int = 0, down: Int64 = 0,
        written: Int64 = 0
    ) -> Totals {
        var t = Totals()
        t.urls = urls
        t.fetched = fetched
        t.revalidated = revalidated
        t.cached = cached
        t.blacklisted = blacklisted
        t.missing = missing
        t.failed = failed
        t.cancelled = cancelled
        t.variantsWritten = variants
        t.bytesDownloaded = down
        t.bytesWritten = written
        return t
    }

    static func recorder(plan: RunPlan = plan, results: [URLResult] = results, elapsed: Double = 3)
        -> RunRecorder
    {
        let now = plan.startedAt.addingTimeInterval(elapsed)
        let recorder = RunRecorder(plan: plan, clock: { now })
        for result in results { recorder.record(result) }
        return recorder
    }

    static func report(plan: RunPlan = plan, results: [URLResult] = results) -> RunReport {
        recorder(plan: plan, results: results).report(version: "1.0.0", endedAt: end)
    }

    /// A fresh temporary folder; the caller removes it.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "prewarm-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Collects text written by a sink from any thread.
final class Capture: Sendable {
    private let parts = Mutex<[String]>([])
    var all: [String] { parts.withLock { $0 } }
    var text: String { all.joined() }
    func append(_ text: String) { parts.withLock { $0.append(text) } }
}
