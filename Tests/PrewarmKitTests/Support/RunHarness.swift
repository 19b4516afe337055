import Foundation
import PrewarmKit
import TestOrigin

/// One end-to-end run environment: a temp folder with real images served by a TestOrigin, a
/// cache folder, and the real CLI driven in-process.
final class RunHarness {
    let directory: String
    let origin: TestOrigin
    var cache: String { directory + "/cache" }

    /// Small real images no one here drew (Debian's mate-backgrounds and afl++-doc seeds),
    /// served under /files/.
    static let fixtures: [String: String] = [
        "flower.jpg": "/usr/share/backgrounds/mate/nature/FreshFlower.jpg",
        "kitty.png": "/usr/share/doc/afl++-doc/afl/testcases/images/png/not_kitty.png",
        "kitty-alpha.png": "/usr/share/doc/afl++-doc/afl/testcases/images/png/not_kitty_alpha.png",
        "kitty.gif": "/usr/share/doc/afl++-doc/afl/testcases/images/gif/not_kitty.gif",
        "kitty.webp": "/usr/share/doc/afl++-doc/afl/testcases/images/webp/not_kitty.webp",
    ]

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-run-\(UUID().uuidString)").path
        let files = directory + "/origin"
        try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
        for (name, source) in Self.fixtures {
            try FileManager.default.copyItem(atPath: source, toPath: files + "/" + name)
        }
        try "<html><body>not an image</body></html>".write(toFile: files + "/page.jpg", atomically: true, encoding: .utf8)
        origin = try TestOrigin(root: files)
    }

    deinit {
        origin.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func url(_ path: String) -> String { origin.baseURL + path }

    /// Writes a manifest and returns its path.
    @discardableResult
    func manifest(_ yaml: String, name: String = "job.yaml") throws -> String {
        let path = directory + "/" + name
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    struct Outcome {
        var status: Int32
        var out: String
        var error: String
        var report: [String: Any]
        var events: [[String: Any]]

        var totals: [String: Int] { report["totals"] as? [String: Int] ?? [:] }
        func event(_ urlSuffix: String) -> [String: Any]? {
            events.first { ($0["url"] as? String)?.hasSuffix(urlSuffix) == true }
        }
    }

    /// Runs `prewarm run MANIFEST --cache CACHE --report R --events E` plus `extra`.
    func run(_ manifest: String, _ extra: [String] = []) async -> Outcome {
        let report = directory + "/report-\(UUID().uuidString).json"
        let events = directory + "/events-\(UUID().uuidString).ndjson"
        let (console, captured) = Console.capturing()
        let cli = CommandLineInterface(
            console: console, environment: ["HOME": directory, "ORIGIN": origin.baseURL], handleSignals: false)
        let status = await cli.run(
            ["run", manifest, "--cache", cache, "--report", report, "--events", events, "--progress", "none"] + extra)
        let reportJSON = (try? Data(contentsOf: URL(fileURLWithPath: report)))
            .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? [:]
        let eventLines = ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "")
            .split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        return Outcome(status: status, out: captured.out, error: captured.error, report: reportJSON, events: eventLines)
    }

    /// Every regular file under the cache's v1/ folder.
    func cacheFiles() -> [String] {
        let base = cache + "/v1"
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        return walker.compactMap { $0 as? String }.filter { !$0.hasSuffix("/") }
            .map { base + "/" + $0 }
            .filter { var isDirectory: ObjCBool = false; return FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue }
    }
}

/// Runs a blocking call (waiting on the origin, on a child process) on its own thread, so it never
/// holds one of the few cooperative-pool threads the code under test needs.
func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}
