import Foundation
import Glibc
import Testing

@testable import PrewarmCache

@Suite struct FailedListTests {
    @Test func failureIsReturnedOnlyWithinItsTTL() throws {
        let temp = try TempCache()
        let key = "https://x/missing.jpg"
        #expect(temp.cache.failure(forKey: key, ttl: 100, now: 1000) == nil)
        let record = FailedRecord(url: key, reason: "http_404", status: 404, at: 1000, attempts: 1)
        try temp.cache.recordFailure(key: key, record: record)
        #expect(temp.cache.failure(forKey: key, ttl: 100, now: 1099) == record)
        #expect(temp.cache.failure(forKey: key, ttl: 100, now: 1100) == nil)
        #expect(temp.cache.failedEntries() == [record])
        temp.cache.clearFailure(key: key)
        #expect(temp.cache.failure(forKey: key, ttl: 100, now: 1001) == nil)
    }

    @Test func clearFailedRemovesEveryRecord() throws {
        let temp = try TempCache()
        for index in 0..<5 {
            try temp.cache.recordFailure(
                key: "k\(index)",
                record: .init(
                    url: "u\(index)", reason: "decode", status: nil, at: Double(index), attempts: 3)
            )
        }
        #expect(temp.cache.statistics().failedRecords == 5)
        #expect(temp.cache.failedEntries().map(\.url) == ["u0", "u1", "u2", "u3", "u4"])
        #expect(temp.cache.clearFailed() == 5)
        #expect(temp.cache.failedEntries().isEmpty)
        #expect(temp.tempFiles().isEmpty)
    }
}

@Suite struct JobLockTests {
    /// Takes a lock that was just released. Another test in this process may be spawning a
    /// program at that moment: the forked child shares our open files until its exec closes them
    /// (O_CLOEXEC), and with them the flock. So allow that short window to pass.
    func lockAfterRelease(_ cache: DiskCache, _ job: String) throws -> JobLock {
        for _ in 0..<100 {
            if let lock = try? cache.lockJob(job) { return lock }
            usleep(10_000)
        }
        return try cache.lockJob(job)
    }

    @Test func secondLockOfTheSameJobIsRefused() throws {
        let temp = try TempCache()
        let lock = try temp.cache.lockJob("catalog")
        do {
            _ = try temp.cache.lockJob("catalog")
            Issue.record("the second lock must fail")
        } catch {
            guard case .lockHeld(let job, let holder) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(job == "catalog")
            #expect(holder.contains("pid \(getpid())"))
        }
        let other = try temp.cache.lockJob("home")
        #expect(other.isHeld)
        lock.release()
        #expect(!lock.isHeld)
        let again = try lockAfterRelease(temp.cache, "catalog")
        #expect(again.isHeld)
    }

    @Test func lockIsReleasedWhenTheObjectGoes() throws {
        let temp = try TempCache()
        do { _ = try temp.cache.lockJob("j") }
        #expect(throws: Never.self) { _ = try lockAfterRelease(temp.cache, "j") }
    }

    @Test func lockHoldsAgainstOtherProcesses() throws {
        let temp = try TempCache()
        let path = temp.root + "/locks/catalog.lock"
        var lock: JobLock? = try temp.cache.lockJob("catalog")
        #expect(lock?.isHeld == true)
        #expect(try run("/usr/bin/flock", ["-n", path, "true"]).status != 0)
        lock = nil
        var status: Int32 = -1
        for _ in 0..<100 where status != 0 {  // see lockAfterRelease
            status = try run("/usr/bin/flock", ["-n", path, "true"]).status
            if status != 0 { usleep(10_000) }
        }
        #expect(status == 0)
    }

    @Test func jobNamesCannotEscapeTheLocksDirectory() {
        #expect(CacheLayout.safeFileName("../etc/x") == "_.._etc_x")
        #expect(CacheLayout.safeFileName("night-run_2") == "night-run_2")
    }
}
