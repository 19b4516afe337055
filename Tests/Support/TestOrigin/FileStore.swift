// The files served under /files/: a folder on disk plus in-memory overrides from setFile.
import Foundation
import Glibc
import Synchronization

/// One servable file with its validators.
struct StoredFile: Sendable {
    var contents: [UInt8]
    /// Quoted entity tag.
    var etag: String
    /// Seconds since the epoch.
    var lastModified: Int
}

enum FileLookup: Sendable {
    case found(StoredFile)
    case notFound
    case forbidden
}

final class FileStore: Sendable {
    private let root: String?
    private let overrides = Mutex<[String: StoredFile]>([:])
    private let generation = Atomic<Int>(0)

    init(root: String?) {
        self.root = root.map { $0.hasSuffix("/") && $0.count > 1 ? String($0.dropLast()) : $0 }
    }

    /// Normalizes a relative path; nil if it tries to leave the root.
    static func normalize(_ relativePath: String) -> String? {
        let components = relativePath.split(separator: "/").filter { $0 != "." }
        if components.contains("..") || components.contains(where: { $0.contains("\0") }) { return nil }
        return components.joined(separator: "/")
    }

    func lookup(_ relativePath: String) -> FileLookup {
        guard let path = Self.normalize(relativePath) else { return .forbidden }
        if let file = overrides.withLock({ $0[path] }) { return .found(file) }
        guard let root, !path.isEmpty else { return .notFound }
        let fullPath = root + "/" + path
        var info = stat()
        guard stat(fullPath, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
            let data = FileManager.default.contents(atPath: fullPath)
        else { return .notFound }
        let seconds = Int(info.st_mtim.tv_sec)
        let etag =
            "\"\(String(info.st_size, radix: 16))-\(String(seconds, radix: 16))-\(String(info.st_mtim.tv_nsec, radix: 16))\""
        return .found(StoredFile(contents: [UInt8](data), etag: etag, lastModified: seconds))
    }

    /// Serves `contents` at `relativePath` from now on, with validators that differ from any it had before.
    func setFile(_ relativePath: String, contents: [UInt8]) {
        let path = Self.normalize(relativePath) ?? relativePath
        let previous: Int? =
            switch lookup(path) {
            case .found(let file): file.lastModified
            default: nil
            }
        // Last-Modified has one-second resolution: move it strictly forward so If-Modified-Since sees the change.
        let now = Int(time(nil))
        let lastModified = previous.map { max(now, $0 + 1) } ?? now
        let serial = generation.add(1, ordering: .relaxed).newValue
        let etag = "\"mem-\(serial)-\(String(Self.fnv1a(contents), radix: 16))\""
        overrides.withLock { $0[path] = StoredFile(contents: contents, etag: etag, lastModified: lastModified) }
    }

    private static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return hash
    }

    /// Content-Type from the file extension.
    static func contentType(for path: String) -> String {
        let fileExtension = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch fileExtension {
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "html", "htm": return "text/html; charset=utf-8"
        case "txt": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}
