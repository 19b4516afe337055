import Foundation
import Testing

@testable import PrewarmCache

@Suite struct SizeLimitTests {
    let body = [UInt8](repeating: 0xAB, count: 1000)

    func scannedBytes(_ cache: DiskCache) -> Int64 { cache.statistics().bytes }

    @Test func trimRemovesLeastRecentlyUsedDownToLowWater() throws {
        let temp = try TempCache()
        var entrySize: Int64 = 0
        for index in 0..<10 {
            let key = "https://x/\(index).jpg"
            let stored = try temp.cache.store(
                key: key, body: body, metadata: temp.meta(key, fetchedAt: 1000 + Double(index) * 10)
            )
            entrySize = stored.diskBytes
        }
        // Entry 0 is the oldest fetch but was just used: it must outlive entries 1 and 2.
        #expect(temp.cache.lookup(key: "https://x/0.jpg", maxAge: nil, now: 10_000) != .absent)

        let total = scannedBytes(temp.cache)
        // Low water = 90% of 85% of ten equal entries = 7.65 entries: three must go.
        let maxSize = total * 85 / 100
        let report = temp.cache.trim(maxSize: maxSize)
        #expect(report.totalBytes <= DiskCache.lowWaterMark(maxSize: maxSize))
        #expect(report.totalBytes == scannedBytes(temp.cache))
        #expect(report.removedEntries == 3)
        #expect(report.freedBytes == 3 * entrySize)
        let present = (0..<10).filter {
            temp.cache.lookup(key: "https://x/\($0).jpg", maxAge: nil, now: 10_000) != .absent
        }
        #expect(present == [0, 4, 5, 6, 7, 8, 9])
    }

    @Test func trimDoesNothingUnderTheLimitOrWhenUnlimited() throws {
        let temp = try TempCache()
        try temp.cache.store(key: "a", body: body, metadata: temp.meta("a", fetchedAt: 1))
        #expect(temp.cache.trim(maxSize: 0).removedEntries == 0)
        #expect(temp.cache.trim(maxSize: 1_000_000).removedEntries == 0)
        #expect(temp.cache.trim(maxSize: 100).removedEntries == 1)
    }

    @Test func sizeGuardKeepsTheCacheWithinMaxSizePlusOneEntry() throws {
        let temp = try TempCache()
        // Five entries from an earlier run, older than anything stored now.
        for index in 0..<5 {
            try temp.cache.store(
                key: "old\(index)", body: body,
                metadata: temp.meta("old\(index)", fetchedAt: 100 + Double(index)))
        }
        let maxSize: Int64 = 12_000
        let guardian = temp.cache.makeSizeGuard(maxSize: maxSize)
        var largestEntry: Int64 = 0
        for index in 0..<60 {
            let key = "new\(index)"
            let stored = try temp.cache.store(
                key: key, body: body, metadata: temp.meta(key, fetchedAt: 10_000 + Double(index)))
            largestEntry = max(largestEntry, stored.diskBytes)
            guardian.didStore(stored)
            #expect(scannedBytes(temp.cache) <= maxSize + largestEntry)
        }
        let report = try #require(guardian.finish())
        #expect(report.totalBytes <= maxSize)
        #expect(scannedBytes(temp.cache) <= maxSize)
        #expect(guardian.removedEntries > 0)
        // The older run's entries went first; this run's newest are kept.
        for index in 0..<5 {
            #expect(temp.cache.lookup(key: "old\(index)", maxAge: nil, now: 20_000) == .absent)
        }
        #expect(temp.cache.lookup(key: "new59", maxAge: nil, now: 20_000) != .absent)
        #expect(temp.cache.lookup(key: "new58", maxAge: nil, now: 20_000) != .absent)
    }

    @Test func sizeGuardDoesNothingForARunThatStoredNothing() throws {
        let temp = try TempCache()
        let guardian = temp.cache.makeSizeGuard(maxSize: 10)
        #expect(guardian.finish() == nil)
        #expect(guardian.estimatedBytes == nil)
    }

    @Test func cleanTrimsAfterRemovingExpiredEntries() throws {
        let temp = try TempCache()
        for index in 0..<10 {
            try temp.cache.store(
                key: "k\(index)", body: body,
                metadata: temp.meta("k\(index)", fetchedAt: 1000 + Double(index)))
        }
        let report = temp.cache.clean(maxAge: nil, maxSize: 5_000, now: 2000)
        #expect(report.trimmedEntries > 0)
        #expect(report.remainingBytes <= DiskCache.lowWaterMark(maxSize: 5_000))
        #expect(scannedBytes(temp.cache) == report.remainingBytes)
    }
}
