import Foundation
import Glibc

/// One key's files as found by a scan of `v1/`, without reading any file.
struct ScannedEntry: Sendable {
    struct Body: Sendable {
        var ext: String
        var size: Int64
        var modified: Double
    }

    var hash: String
    var directory: String
    /// Size of the `.meta` file, nil when there is none.
    var metaSize: Int64?
    /// `.meta` mtime: the fetch time.
    var fetchedAt: Double = 0
    /// `.meta` atime: the last access.
    var lastAccess: Double = 0
    /// `.meta` inode: a re-store or renew renames a new file in, so a changed inode means the
    /// entry is no longer the one scanned.
    var metaInode: UInt = 0
    var bodies: [Body] = []

    var hasMeta: Bool { metaSize != nil }
    var bytes: Int64 { bodies.reduce(metaSize ?? 0) { $0 + $1.size } }
    var metaPath: String { directory + "/" + hash + "." + CacheLayout.metaExtension }
    func bodyPath(_ body: Body) -> String { directory + "/" + hash + "." + body.ext }
    /// The time LRU trimming orders by: last access, or for an orphan its body's age.
    var lastUse: Double {
        hasMeta ? max(lastAccess, fetchedAt) : bodies.map(\.modified).max() ?? 0
    }
}

extension DiskCache {
    /// A body with no `.meta` younger than this may be a store in progress (body renamed, meta not
    /// yet), so it is not yet an orphan. Generous, for NFS clock skew between hosts.
    static let orphanGrace: Double = 600

    /// Every entry under `v1/`, from directory listings and stat(2) only.
    func scanEntries() -> [ScannedEntry] {
        var entries: [ScannedEntry] = []
        let top = layout.entriesDirectory
        for first in FileSystem.entries(of: top) where first.utf8.count == 2 {
            for second in FileSystem.entries(of: top + "/" + first) where second.utf8.count == 2 {
                let directory = top + "/" + first + "/" + second
                scanLeaf(directory, into: &entries)
            }
        }
        return entries
    }

    private func scanLeaf(_ directory: String, into entries: inout [ScannedEntry]) {
        var byHash: [String: ScannedEntry] = [:]
        for name in FileSystem.entries(of: directory) {
            guard let dot = name.lastIndex(of: ".") else { continue }
            let hash = String(name[..<dot])
            let ext = String(name[name.index(after: dot)...])
            let isMeta = ext == CacheLayout.metaExtension
            guard isMeta || CacheLayout.bodyExtensions.contains(ext),
                let info = FileSystem.status(directory + "/" + name)
            else { continue }
            var entry = byHash[hash] ?? ScannedEntry(hash: hash, directory: directory)
            if isMeta {
                entry.metaSize = Int64(info.st_size)
                entry.fetchedAt = info.st_mtim.seconds
                entry.lastAccess = info.st_atim.seconds
                entry.metaInode = UInt(info.st_ino)
            } else {
                entry.bodies.append(
                    .init(ext: ext, size: Int64(info.st_size), modified: info.st_mtim.seconds))
            }
            byHash[hash] = entry
        }
        entries.append(contentsOf: byHash.values)
    }

    /// Bodies that belong to no entry: no `.meta` at all, or (when a key changed format) a body
    /// whose extension is not the one its `.meta` names. Only those older than `orphanGrace`.
    func orphanBodies(of entry: ScannedEntry, now: Double) -> [ScannedEntry.Body] {
        let old = entry.bodies.filter { now - $0.modified >= Self.orphanGrace }
        guard !old.isEmpty else { return [] }
        if !entry.hasMeta { return old }
        if entry.bodies.count == 1 { return [] }
        guard let meta = readMetadata(at: entry.metaPath) else { return [] }
        return old.filter { $0.ext != meta.format }
    }

    /// Deletes an entry's files, `.meta` first. Skipped (false) when the `.meta` was replaced since
    /// the scan — another process re-stored or renewed the key meanwhile. (Its atime is not
    /// compared: on relatime mounts reading the file, as `verify` does, moves it.)
    @discardableResult
    func removeScanned(_ entry: ScannedEntry) -> Bool {
        if entry.hasMeta {
            guard let info = FileSystem.status(entry.metaPath),
                UInt(info.st_ino) == entry.metaInode, info.st_mtim.seconds == entry.fetchedAt
            else { return false }
            FileSystem.remove(entry.metaPath)
        }
        for body in entry.bodies { FileSystem.remove(entry.bodyPath(body)) }
        return true
    }
}
