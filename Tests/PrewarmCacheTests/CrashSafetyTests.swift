import Foundation
import Glibc
import Testing

@testable import PrewarmCache

@Suite struct CrashSafetyTests {
    /// The pid of a process that has exited.
    func deadPID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func sweepRemovesDeadProcessesTempFilesAndKeepsLiveOnes() throws {
        let temp = try TempCache()
        let host = TempFiles.hostTag
        let tmp = temp.root + "/tmp/"
        let dead = "\(try deadPID())-\(host)-aaaa.tmp"
        let live = "\(getpid())-\(host)-bbbb.tmp"
        let otherHostYoung = "\(try deadPID())-ffffffff-cccc.tmp"
        let otherHostOld = "1234-ffffffff-dddd.tmp"
        for name in [dead, live, otherHostYoung, otherHostOld] {
            #expect(FileManager.default.createFile(atPath: tmp + name, contents: Data([1])))
        }
        setTimes(tmp + otherHostOld, access: now() - 7200, modification: now() - 7200)
        #expect(temp.cache.statistics().tempLeftovers == 2)

        _ = try DiskCache(root: temp.root)  // opening a cache sweeps

        #expect(!fileExists(tmp + dead))
        #expect(fileExists(tmp + live))
        #expect(fileExists(tmp + otherHostYoung))  // a pid from another host means nothing here
        #expect(!fileExists(tmp + otherHostOld))
    }

    @Test func orphanBodyIsInvisibleAndRemovedByClean() throws {
        let temp = try TempCache()
        let key = "https://x/orphan.jpg"
        let stored = try temp.cache.store(
            key: key, body: [1, 2, 3], metadata: temp.meta(key, fetchedAt: now()))
        // A crash between the two renames leaves a body without metadata.
        #expect(FileManager.default.createFile(atPath: stored.path + ".x", contents: nil))
        try FileManager.default.removeItem(atPath: temp.cache.metadataPath(key: key))
        #expect(temp.cache.lookup(key: key, maxAge: nil, now: now()) == .absent)

        // Younger than the grace period it may be a store in progress: kept.
        #expect(temp.cache.clean(maxAge: nil, maxSize: 0, now: now()).orphanBodies == 0)
        #expect(fileExists(stored.path))

        setTimes(stored.path, access: now() - 3600, modification: now() - 3600)
        #expect(temp.cache.statistics().orphans == 1)
        let report = temp.cache.clean(maxAge: nil, maxSize: 0, now: now())
        #expect(report.orphanBodies == 1)
        #expect(!fileExists(stored.path))
    }

    @Test func bodyLeftByAFormatChangeIsAnOrphan() throws {
        let temp = try TempCache()
        let key = "https://x/a"
        let old = try temp.cache.store(
            key: key, body: [1], metadata: temp.meta(key, format: "png", fetchedAt: now()))
        let new = try temp.cache.store(
            key: key, body: [2], metadata: temp.meta(key, format: "webp", fetchedAt: now()))
        setTimes(old.path, access: now() - 3600, modification: now() - 3600)
        #expect(temp.cache.clean(maxAge: nil, maxSize: 0, now: now()).orphanBodies == 1)
        #expect(!fileExists(old.path))
        #expect(readBytes(new.path) == [2])
    }

    @Test func cleanRemovesExpiredEntries() throws {
        let temp = try TempCache()
        let current = now()
        try temp.cache.store(
            key: "old", body: [1], metadata: temp.meta("old", fetchedAt: current - 1000))
        try temp.cache.store(
            key: "new", body: [1], metadata: temp.meta("new", fetchedAt: current - 10))
        let report = temp.cache.clean(maxAge: 500, maxSize: 0, now: current)
        #expect(report.expiredEntries == 1)
        #expect(temp.cache.lookup(key: "old", maxAge: nil, now: current) == .absent)
        #expect(temp.cache.lookup(key: "new", maxAge: nil, now: current) != .absent)
    }

    @Test func clearEmptiesTheCacheButKeepsRootAndLocks() throws {
        let temp = try TempCache()
        try temp.cache.store(key: "a", body: [1], metadata: temp.meta("a", fetchedAt: now()))
        try temp.cache.recordFailure(
            key: "b",
            record: .init(url: "b", reason: "http_404", status: 404, at: now(), attempts: 1))
        let lock = try temp.cache.lockJob("job")
        try temp.cache.clear()
        #expect(temp.cache.lookup(key: "a", maxAge: nil, now: now()) == .absent)
        #expect(temp.cache.failedEntries().isEmpty)
        #expect(temp.cache.statistics().entries == 0)
        #expect(temp.tempFiles().isEmpty)
        #expect(fileExists(temp.root + "/locks/job.lock"))
        #expect(lock.isHeld)
        // The cache still works afterwards.
        try temp.cache.store(key: "a", body: [1], metadata: temp.meta("a", fetchedAt: now()))
        #expect(temp.cache.lookup(key: "a", maxAge: nil, now: now()) != .absent)
    }

    @Test func statisticsCountEntriesByFormat() throws {
        let temp = try TempCache()
        try temp.cache.store(
            key: "a", body: [1, 2], metadata: temp.meta("a", format: "jpg", fetchedAt: 100))
        try temp.cache.store(
            key: "b", body: [1, 2, 3], metadata: temp.meta("b", format: "webp", fetchedAt: 200))
        try temp.cache.store(
            key: "c", body: [1], metadata: temp.meta("c", format: "webp", fetchedAt: 300))
        let stats = temp.cache.statistics()
        #expect(stats.entries == 3)
        #expect(stats.byFormat["webp"] == .init(entries: 2, bytes: 4))
        #expect(stats.byFormat["jpg"] == .init(entries: 1, bytes: 2))
        #expect(stats.oldestFetch == 100 && stats.newestFetch == 300)
        #expect(stats.bytes > 6)  // bodies plus metadata files
    }
}
