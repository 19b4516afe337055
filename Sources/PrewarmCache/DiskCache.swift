import Foundation
import Glibc
import PrewarmCore

/// The on-disk image cache (SPEC "Cache"), safe to share between processes and hosts.
///
/// Invariants that make sharing safe without a global lock:
/// - Every file appears by rename(2) from `<root>/tmp/`, so no reader sees a partial file.
/// - The body is renamed into place before its `.meta`, and removal deletes the `.meta` first, so a
///   present `.meta` implies a complete body. A body without `.meta` is an orphan: lookups treat it
///   as absent and `clean`/`verify` remove it.
/// - The `.meta` file's mtime is the fetch time and its atime the last access (both set explicitly,
///   so noatime/relatime mounts do not matter): `lookup` is a single stat(2), with no read.
public final class DiskCache: Sendable {
    /// The cache root, without a trailing slash.
    public let root: String
    /// Whether files are fsync'd before being renamed into place (see `init`).
    public let durable: Bool
    let layout: CacheLayout

    /// A fresh entry's access time is refreshed at most this often, so a warm re-run does not turn
    /// into a write storm; LRU trimming only needs hour resolution.
    static let accessRefreshInterval: Double = 3600

    /// Opens (creating if needed) the cache at `root`: makes `v1/`, `tmp/`, `failed/` and `locks/`,
    /// checks that a file can be written, and sweeps temp files left by crashed runs.
    ///
    /// - Parameter durable: fsync every file before renaming it into place (the default). It costs
    ///   a disk flush per stored file but guarantees that after a power loss no entry has a renamed
    ///   but empty body. Turn it off for throwaway caches (tmpfs, CI).
    public init(root: String, durable: Bool = true) throws(CacheError) {
        layout = CacheLayout(root: root)
        self.root = layout.root
        self.durable = durable
        for directory in [
            layout.root, layout.entriesDirectory, layout.tempDirectory, layout.failedDirectory,
            layout.locksDirectory,
        ] {
            try FileSystem.makeDirectories(directory)
        }
        let probe = layout.tempDirectory + "/" + TempFiles.makeName()
        try FileSystem.writeNewFile(
            probe, bytes: UnsafeRawBufferPointer(start: nil, count: 0), durable: false)
        FileSystem.remove(probe)
        TempFiles.sweep(directory: layout.tempDirectory, now: FileSystem.now())
    }

    // MARK: Paths

    /// Where the body of `key` in format `ext` lives (whether or not it exists).
    public func bodyPath(key: String, ext: String) -> String {
        layout.entryFile(hash: CacheLayout.hash(of: key), suffix: ext)
    }

    /// Where the metadata of `key` lives (whether or not it exists).
    public func metadataPath(key: String) -> String {
        layout.entryFile(hash: CacheLayout.hash(of: key), suffix: CacheLayout.metaExtension)
    }

    // MARK: Reading

    /// Whether `key` is cached and younger than `maxAge` seconds (nil: never stale).
    /// Costs one stat(2) of the `.meta` file; a fresh entry's access time is refreshed (one
    /// utimensat) at most once an hour, for least-recently-used trimming.
    public func lookup(key: String, maxAge: Double?, now: Double) -> CacheLookup {
        let path = layout.entryFile(
            hash: CacheLayout.hash(of: key), suffix: CacheLayout.metaExtension)
        guard let info = FileSystem.status(path) else { return .absent }
        let fetchedAt = info.st_mtim.seconds
        if let maxAge, now - fetchedAt >= maxAge { return .stale(fetchedAt: fetchedAt) }
        if now - info.st_atim.seconds >= Self.accessRefreshInterval {
            FileSystem.setTimes(path, access: now, modification: nil)
        }
        return .fresh(fetchedAt: fetchedAt)
    }

    /// The stored metadata of `key`, or nil if absent or unreadable.
    public func metadata(key: String) -> EntryMetadata? {
        readMetadata(at: metadataPath(key: key))
    }

    func readMetadata(at path: String) -> EntryMetadata? {
        guard let bytes = FileSystem.readFile(path) else { return nil }
        return try? JSONDecoder().decode(EntryMetadata.self, from: Data(bytes))
    }

    // MARK: Writing

    /// Stores `body` under `key`, replacing any previous entry atomically. `metadata.format` is the
    /// file extension; `size` and `sha256` are computed here from `body`. The `.meta` file's mtime
    /// is set to `metadata.fetchedAt`. On failure nothing is left in `tmp/` and the previous entry,
    /// if any, is untouched.
    @discardableResult
    public func store(key: String, body: [UInt8], metadata: EntryMetadata) throws(CacheError)
        -> StoredEntry
    {
        var meta = metadata
        meta.key = key
        meta.size = Int64(body.count)
        meta.sha256 = body.withUnsafeBytes { SHA256.hex(bytes: $0) }
        let hash = CacheLayout.hash(of: key)
        let bodyFinal = layout.entryFile(hash: hash, suffix: meta.format)
        let metaFinal = layout.entryFile(hash: hash, suffix: CacheLayout.metaExtension)

        let bodyTemp = layout.tempDirectory + "/" + TempFiles.makeName()
        try body.withUnsafeBytes { bytes in
            Result { () throws(CacheError) in
                try FileSystem.writeNewFile(bodyTemp, bytes: bytes, durable: durable)
            }
        }.get()
        let metaTemp: String
        let metaBytes: Int64
        do throws(CacheError) {
            (metaTemp, metaBytes) = try writeMetadataTemp(meta, accessedAt: meta.fetchedAt)
            try FileSystem.makeDirectories(layout.entryDirectory(hash: hash))
        } catch {
            FileSystem.remove(bodyTemp)
            throw error
        }
        do throws(CacheError) {
            try moveIntoPlace(bodyTemp, bodyFinal, hash: hash)
        } catch {
            FileSystem.remove(bodyTemp)
            FileSystem.remove(metaTemp)
            throw error
        }
        do throws(CacheError) {
            try moveIntoPlace(metaTemp, metaFinal, hash: hash)
        } catch {
            // The new body already replaced the old one; an old `.meta` would now describe the
            // wrong bytes, so drop it: the entry becomes absent rather than inconsistent.
            FileSystem.remove(metaTemp)
            FileSystem.remove(metaFinal)
            throw error
        }
        return StoredEntry(path: bodyFinal, bytesWritten: meta.size, metadataBytes: metaBytes)
    }

    /// Marks `key` as fetched again at `now` after a 304 Not Modified, updating the validators
    /// (a nil validator keeps the stored one).
    public func renew(key: String, etag: String?, lastModified: String?, now: Double)
        throws(CacheError)
    {
        let hash = CacheLayout.hash(of: key)
        let metaFinal = layout.entryFile(hash: hash, suffix: CacheLayout.metaExtension)
        guard var meta = readMetadata(at: metaFinal) else {
            throw CacheError.corrupt(metaFinal, "no readable metadata to renew")
        }
        if let etag { meta.etag = etag }
        if let lastModified { meta.lastModified = lastModified }
        meta.fetchedAt = now
        let (metaTemp, _) = try writeMetadataTemp(meta, accessedAt: now)
        do throws(CacheError) {
            try moveIntoPlace(metaTemp, metaFinal, hash: hash)
        } catch {
            FileSystem.remove(metaTemp)
            throw error
        }
    }

    /// Removes `key`'s entry (metadata first, so the entry is never half there).
    public func remove(key: String) {
        let hash = CacheLayout.hash(of: key)
        FileSystem.remove(layout.entryFile(hash: hash, suffix: CacheLayout.metaExtension))
        for ext in CacheLayout.bodyExtensions {
            FileSystem.remove(layout.entryFile(hash: hash, suffix: ext))
        }
    }

    /// Writes `meta` as JSON to a new temp file whose mtime is the fetch time; returns its path
    /// and size.
    private func writeMetadataTemp(_ meta: EntryMetadata, accessedAt: Double) throws(CacheError)
        -> (path: String, bytes: Int64)
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(meta) else {
            throw CacheError.io(meta.key, "cannot encode metadata")
        }
        let path = layout.tempDirectory + "/" + TempFiles.makeName()
        try data.withUnsafeBytes { bytes in
            Result { () throws(CacheError) in
                try FileSystem.writeNewFile(path, bytes: bytes, durable: durable)
            }
        }.get()
        // Set after close: on NFS, close flushes data, which could otherwise move mtime again.
        let code = FileSystem.setTimes(path, access: accessedAt, modification: meta.fetchedAt)
        if code != 0 {
            FileSystem.remove(path)
            throw CacheError.from(errno: code, path: path)
        }
        return (path, Int64(data.count))
    }

    /// rename(2) into the entry directory, recreating it once if `clear()` removed it meanwhile.
    private func moveIntoPlace(_ temp: String, _ final: String, hash: String) throws(CacheError) {
        var code = FileSystem.rename(temp, final)
        if code == ENOENT {
            try FileSystem.makeDirectories(layout.entryDirectory(hash: hash))
            code = FileSystem.rename(temp, final)
        }
        if code != 0 { throw CacheError.from(errno: code, path: final) }
    }
}
