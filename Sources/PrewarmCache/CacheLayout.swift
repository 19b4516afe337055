import PrewarmCore

/// Where everything lives under a cache root (SPEC "Cache"):
///
///     <root>/v1/<h0h1>/<h2h3>/<h>.<ext>   body (jpg png webp gif)
///     <root>/v1/<h0h1>/<h2h3>/<h>.meta    metadata (JSON); mtime = fetch time, atime = last access
///     <root>/failed/<h0h1>/<h>.json       failed-URL record
///     <root>/locks/<job>.lock             per-job run lock
///     <root>/tmp/                          temp files, renamed into place
///
/// `h` is the lowercase hex SHA-256 of the key's UTF-8 bytes.
struct CacheLayout: Sendable {
    let root: String
    let entriesDirectory: String
    let tempDirectory: String
    let failedDirectory: String
    let locksDirectory: String

    /// The body extensions an entry may have.
    static let bodyExtensions = ["jpg", "png", "webp", "gif"]
    static let metaExtension = "meta"

    init(root: String) {
        var trimmed = root
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.root = trimmed
        entriesDirectory = trimmed + "/v1"
        tempDirectory = trimmed + "/tmp"
        failedDirectory = trimmed + "/failed"
        locksDirectory = trimmed + "/locks"
    }

    /// The hash that names a key's files.
    @inline(__always)
    static func hash(of key: String) -> String { SHA256.hex(key) }

    /// `<root>/v1/<h0h1>/<h2h3>`, built into one preallocated string.
    func entryDirectory(hash: String) -> String {
        var path = String()
        path.reserveCapacity(entriesDirectory.utf8.count + 6)
        path += entriesDirectory
        appendShards(of: hash, to: &path)
        return path
    }

    /// `<root>/v1/<h0h1>/<h2h3>/<h>.<suffix>`, built into one preallocated string.
    func entryFile(hash: String, suffix: String) -> String {
        var path = String()
        path.reserveCapacity(entriesDirectory.utf8.count + 8 + hash.utf8.count + suffix.utf8.count)
        path += entriesDirectory
        appendShards(of: hash, to: &path)
        path += "/"
        path += hash
        path += "."
        path += suffix
        return path
    }

    func failedDirectory(hash: String) -> String {
        failedDirectory + "/" + hash.prefix(2)
    }

    func failedFile(hash: String) -> String {
        failedDirectory(hash: hash) + "/" + hash + ".json"
    }

    func lockFile(job: String) -> String {
        locksDirectory + "/" + Self.safeFileName(job) + ".lock"
    }

    /// Job names come from manifests; keep them to one harmless path component.
    static func safeFileName(_ name: String) -> String {
        let cleaned = String(
            name.map { character -> Character in
                character.isLetter || character.isNumber || "-_.".contains(character)
                    ? character : "_"
            })
        return cleaned.isEmpty || cleaned.hasPrefix(".") ? "_" + cleaned : cleaned
    }

    private func appendShards(of hash: String, to path: inout String) {
        let utf8 = hash.utf8
        let second = utf8.index(utf8.startIndex, offsetBy: 2)
        let fourth = utf8.index(second, offsetBy: 2)
        path += "/"
        path += hash[utf8.startIndex..<second]
        path += "/"
        path += hash[second..<fourth]
    }
}
