import Foundation
import PrewarmCache
import PrewarmCore
import Testing

/// Measures the warm skip path (lookup of 100,000 stored keys). Not a timed assertion: it prints
/// the rate and runs only when PREWARM_CACHE_BENCH is set, e.g.
/// `PREWARM_CACHE_BENCH=1 swift test --filter LookupThroughputProbe`.
@Suite struct LookupThroughputProbe {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PREWARM_CACHE_BENCH"] != nil))
    func lookupRateOnAWarmCache() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("prewarm-cache-bench-\(UUID().uuidString)").path
        defer { _ = try? run("/bin/rm", ["-rf", directory]) }  // far faster than FileManager here
        let cache = try DiskCache(root: directory, durable: false)
        let count = 100_000
        let keys = (0..<count).map { "https://cdn.example.com/catalog/\($0)/image.jpg" }
        let fetched = now()
        let storeStart = Date()
        for key in keys {
            try cache.store(
                key: key, body: [0xFF, 0xD8, 0xFF],
                metadata: EntryMetadata(key: key, url: key, format: "jpg", fetchedAt: fetched))
        }
        let storeSeconds = Date().timeIntervalSince(storeStart)
        let start = Date()
        var fresh = 0
        for key in keys {
            if case .fresh = cache.lookup(key: key, maxAge: 86_400, now: fetched + 1) { fresh += 1 }
        }
        let seconds = Date().timeIntervalSince(start)
        #expect(fresh == count)
        let hashStart = Date()
        var total = 0
        for key in keys { total &+= SHA256.hex(key).utf8.count }
        let hashSeconds = Date().timeIntervalSince(hashStart)
        #expect(total == count * 64)
        print(
            "lookup: \(count) in \(seconds) s = \(Int(Double(count) / seconds))/s; of which SHA-256 of keys \(hashSeconds) s; stores \(Int(Double(count) / storeSeconds))/s"
        )
    }
}
