import Foundation
import Testing

@testable import PrewarmCache

@Suite struct StoreAndLookupTests {
    @Test func bodyPathFollowsTheSpecLayout() throws {
        let temp = try TempCache()
        let key = "https://cdn.example.com/hero.jpg"
        let result = try run("/bin/sh", ["-c", "printf '%s' '\(key)' | sha256sum"])
        let hash = String(result.output.prefix(64))
        #expect(hash.count == 64)
        let first = hash.prefix(2)
        let second = hash.dropFirst(2).prefix(2)
        #expect(
            temp.cache.bodyPath(key: key, ext: "jpg")
                == "\(temp.root)/v1/\(first)/\(second)/\(hash).jpg")
        let stored = try temp.cache.store(
            key: key, body: [1, 2, 3], metadata: temp.meta(key, fetchedAt: now()))
        #expect(stored.path == "\(temp.root)/v1/\(first)/\(second)/\(hash).jpg")
        #expect(stored.bytesWritten == 3)
        #expect(fileExists("\(temp.root)/v1/\(first)/\(second)/\(hash).meta"))
    }

    @Test func initCreatesTheDirectories() throws {
        let temp = try TempCache()
        for name in ["v1", "tmp", "failed", "locks"] {
            var isDirectory: ObjCBool = false
            #expect(
                FileManager.default.fileExists(
                    atPath: temp.root + "/" + name, isDirectory: &isDirectory))
            #expect(isDirectory.boolValue)
        }
        #expect(temp.tempFiles().isEmpty)
    }

    @Test func lookupIsFreshStaleOrAbsent() throws {
        let temp = try TempCache()
        let key = "https://x/a.jpg"
        let fetched = 1_700_000_000.0
        #expect(temp.cache.lookup(key: key, maxAge: 60, now: fetched) == .absent)
        try temp.cache.store(key: key, body: [9], metadata: temp.meta(key, fetchedAt: fetched))
        #expect(
            temp.cache.lookup(key: key, maxAge: 60, now: fetched + 59) == .fresh(fetchedAt: fetched)
        )
        #expect(
            temp.cache.lookup(key: key, maxAge: 60, now: fetched + 60) == .stale(fetchedAt: fetched)
        )
        #expect(
            temp.cache.lookup(key: key, maxAge: nil, now: fetched + 1e6)
                == .fresh(fetchedAt: fetched))
        #expect(temp.cache.lookup(key: "https://x/b.jpg", maxAge: nil, now: fetched) == .absent)
    }

    @Test func storedMetadataRoundTripsWithComputedSizeAndDigest() throws {
        let temp = try TempCache()
        let key = "https://x/a.png"
        var meta = temp.meta(key, format: "png", fetchedAt: 1_700_000_000.5)
        meta.etag = "\"abc\""
        meta.width = 4
        meta.height = 2
        try temp.cache.store(key: key, body: Array("abc".utf8), metadata: meta)
        let read = try #require(temp.cache.metadata(key: key))
        #expect(read.size == 3)
        // SHA-256("abc"), FIPS 180-2 example.
        #expect(read.sha256 == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(read.etag == "\"abc\"")
        #expect(read.width == 4 && read.height == 2 && read.format == "png")
    }

    @Test func storeReplacesAnExistingEntry() throws {
        let temp = try TempCache()
        let key = "https://x/a.jpg"
        try temp.cache.store(key: key, body: [1, 1, 1], metadata: temp.meta(key, fetchedAt: 100))
        let stored = try temp.cache.store(
            key: key, body: [2, 2], metadata: temp.meta(key, fetchedAt: 200))
        #expect(readBytes(stored.path) == [2, 2])
        #expect(temp.cache.metadata(key: key)?.fetchedAt == 200)
        #expect(temp.cache.lookup(key: key, maxAge: nil, now: 300) == .fresh(fetchedAt: 200))
        #expect(temp.tempFiles().isEmpty)
    }

    @Test func failedStoreLeavesTheOldEntryAndNoTempFile() throws {
        let temp = try TempCache()
        let key = "https://x/a.jpg"
        try temp.cache.store(key: key, body: [1, 2, 3], metadata: temp.meta(key, fetchedAt: 100))
        // A directory where the new body (png) must go: the rename fails after both temp files
        // were written.
        let blocker = temp.cache.bodyPath(key: key, ext: "png")
        try FileManager.default.createDirectory(atPath: blocker, withIntermediateDirectories: true)
        #expect(throws: CacheError.self) {
            try temp.cache.store(
                key: key, body: [7, 7], metadata: temp.meta(key, format: "png", fetchedAt: 200))
        }
        #expect(readBytes(temp.cache.bodyPath(key: key, ext: "jpg")) == [1, 2, 3])
        #expect(temp.cache.metadata(key: key)?.fetchedAt == 100)
        #expect(temp.tempFiles().isEmpty)
    }

    @Test func storeIntoAFileWhereTmpShouldBeFailsCleanly() throws {
        let temp = try TempCache()
        let key = "https://x/a.jpg"
        try temp.cache.store(key: key, body: [5], metadata: temp.meta(key, fetchedAt: 100))
        try FileManager.default.removeItem(atPath: temp.root + "/tmp")
        #expect(FileManager.default.createFile(atPath: temp.root + "/tmp", contents: Data()))
        do {
            try temp.cache.store(key: key, body: [6], metadata: temp.meta(key, fetchedAt: 200))
            Issue.record("store should fail")
        } catch {
            #expect(error.description.contains(temp.root + "/tmp/"))
        }
        #expect(readBytes(temp.cache.bodyPath(key: key, ext: "jpg")) == [5])
    }

    @Test func openingAnUnwritableRootFailsWithAClearError() throws {
        let temp = try TempCache()
        let file = temp.directory + "/plain-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        #expect(throws: CacheError.self) { try DiskCache(root: file + "/cache") }
        #expect(CacheError.diskFull("/c").description.contains("free space"))
        #expect(CacheError.from(errno: ENOSPC, path: "/c") == .diskFull("/c"))
        #expect(CacheError.from(errno: EDQUOT, path: "/c") == .diskFull("/c"))
        if case .notWritable = CacheError.from(errno: EROFS, path: "/c") {
        } else {
            Issue.record("EROFS must map to notWritable")
        }
    }

    @Test func renewMovesTheFetchTimeAndKeepsTheBody() throws {
        let temp = try TempCache()
        let key = "https://x/a.jpg"
        var meta = temp.meta(key, fetchedAt: 100)
        meta.etag = "\"v1\""
        meta.lastModified = "Mon, 01 Jan 2024 00:00:00 GMT"
        try temp.cache.store(key: key, body: [1, 2], metadata: meta)
        #expect(temp.cache.lookup(key: key, maxAge: 50, now: 200) == .stale(fetchedAt: 100))
        try temp.cache.renew(key: key, etag: "\"v2\"", lastModified: nil, now: 200)
        #expect(temp.cache.lookup(key: key, maxAge: 50, now: 210) == .fresh(fetchedAt: 200))
        let renewed = try #require(temp.cache.metadata(key: key))
        #expect(renewed.etag == "\"v2\"")
        #expect(renewed.lastModified == "Mon, 01 Jan 2024 00:00:00 GMT")
        #expect(readBytes(temp.cache.bodyPath(key: key, ext: "jpg")) == [1, 2])
        #expect(throws: CacheError.self) {
            try temp.cache.renew(key: "https://x/none.jpg", etag: nil, lastModified: nil, now: 1)
        }
    }

    @Test func removeDeletesMetadataAndBody() throws {
        let temp = try TempCache()
        let key = "https://x/a.gif"
        let stored = try temp.cache.store(
            key: key, body: [1], metadata: temp.meta(key, format: "gif", fetchedAt: 1))
        temp.cache.remove(key: key)
        #expect(temp.cache.lookup(key: key, maxAge: nil, now: 2) == .absent)
        #expect(!fileExists(stored.path))
    }

    @Test func freshLookupRecordsAccessAtMostHourly() throws {
        let temp = try TempCache()
        let key = "https://x/a.jpg"
        try temp.cache.store(key: key, body: [1], metadata: temp.meta(key, fetchedAt: 1000))
        let metaPath = temp.cache.metadataPath(key: key)
        func accessTime() -> Int? {
            var info = stat()
            return stat(metaPath, &info) == 0 ? info.st_atim.tv_sec : nil
        }
        #expect(accessTime() == 1000)
        _ = temp.cache.lookup(key: key, maxAge: nil, now: 1000 + 1800)
        #expect(accessTime() == 1000)  // within the hour: no write
        _ = temp.cache.lookup(key: key, maxAge: nil, now: 1000 + 7200)
        #expect(accessTime() == 8200)
        #expect(temp.cache.lookup(key: key, maxAge: nil, now: 9000) == .fresh(fetchedAt: 1000))
    }
}
