import Foundation
import PrewarmCore

/// The failed-URL list (blacklist): one small JSON file per key at `<root>/failed/<h0h1>/<h>.json`,
/// so concurrent runs never rewrite a shared file and a lookup of an unlisted key is one failed
/// open(2).
extension DiskCache {
    /// The failure recorded for `key`, if it happened less than `ttl` seconds before `now`.
    public func failure(forKey key: String, ttl: Double, now: Double) -> FailedRecord? {
        let path = layout.failedFile(hash: CacheLayout.hash(of: key))
        guard let bytes = FileSystem.readFile(path),
            let record = try? JSONDecoder().decode(FailedRecord.self, from: Data(bytes))
        else { return nil }
        return now - record.at < ttl ? record : nil
    }

    /// Records (or replaces) the permanent failure of `key`.
    public func recordFailure(key: String, record: FailedRecord) throws(CacheError) {
        let hash = CacheLayout.hash(of: key)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(record) else {
            throw CacheError.io(key, "cannot encode failure record")
        }
        let temp = layout.tempDirectory + "/" + TempFiles.makeName()
        // The blacklist is advisory: losing a record on power loss only costs a refetch.
        try data.withUnsafeBytes { bytes in
            Result { () throws(CacheError) in
                try FileSystem.writeNewFile(temp, bytes: bytes, durable: false)
            }
        }.get()
        let final = layout.failedFile(hash: hash)
        var code = FileSystem.rename(temp, final)
        if code == ENOENT {
            do throws(CacheError) {
                try FileSystem.makeDirectories(layout.failedDirectory(hash: hash))
            } catch {
                FileSystem.remove(temp)
                throw error
            }
            code = FileSystem.rename(temp, final)
        }
        if code != 0 {
            FileSystem.remove(temp)
            throw CacheError.from(errno: code, path: final)
        }
    }

    /// Forgets the failure of `key` (after a later success, or with `retry_failed`).
    public func clearFailure(key: String) {
        FileSystem.remove(layout.failedFile(hash: CacheLayout.hash(of: key)))
    }

    /// Every record in the failed-URL list, oldest first.
    public func failedEntries() -> [FailedRecord] {
        let decoder = JSONDecoder()
        var records: [FailedRecord] = []
        forEachFailedFile { path in
            if let bytes = FileSystem.readFile(path),
                let record = try? decoder.decode(FailedRecord.self, from: Data(bytes))
            {
                records.append(record)
            }
        }
        return records.sorted { $0.at < $1.at }
    }

    /// Empties the failed-URL list; returns how many records were removed.
    @discardableResult
    public func clearFailed() -> Int {
        var removed = 0
        forEachFailedFile { path in
            if FileSystem.remove(path) { removed += 1 }
        }
        return removed
    }

    func countFailed() -> Int {
        var count = 0
        forEachFailedFile { _ in count += 1 }
        return count
    }

    private func forEachFailedFile(_ body: (String) -> Void) {
        for shard in FileSystem.entries(of: layout.failedDirectory) {
            let directory = layout.failedDirectory + "/" + shard
            for name in FileSystem.entries(of: directory) where name.hasSuffix(".json") {
                body(directory + "/" + name)
            }
        }
    }
}
