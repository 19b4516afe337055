import Glibc

/// Thin, allocation-light wrappers over the POSIX calls the cache needs. Foundation's FileManager
/// is avoided on hot paths: it allocates and hides `errno`, and the cache must map ENOSPC/EROFS to
/// the errors the CLI reports.
enum FileSystem {
    /// UTIME_OMIT from <sys/stat.h> (a macro Swift does not import): leave this time unchanged.
    static let utimeOmit = (1 << 30) - 2

    /// `stat(2)`; nil when the path does not exist or cannot be examined.
    @inline(__always)
    static func status(_ path: String) -> stat? {
        var info = stat()
        let result = path.withCString { stat($0, &info) }
        return result == 0 ? info : nil
    }

    /// `mkdir -p`, tolerant of other processes creating the same directories at the same time.
    static func makeDirectories(_ path: String) throws(CacheError) {
        if mkdir(path, 0o755) == 0 { return }
        let code = errno
        if code == EEXIST { return }
        if code == ENOENT {
            let parent = parentDirectory(of: path)
            if parent != path && !parent.isEmpty {
                try makeDirectories(parent)
                if mkdir(path, 0o755) == 0 || errno == EEXIST { return }
                throw CacheError.from(errno: errno, path: path)
            }
        }
        throw CacheError.from(errno: code, path: path)
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// Creates `path` exclusively and writes `bytes` fully. On any failure the file is removed.
    /// With `durable`, the data is fsync'd before the file is closed.
    static func writeNewFile(
        _ path: String, bytes: UnsafeRawBufferPointer, durable: Bool
    ) throws(CacheError) {
        let fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        if fd < 0 { throw CacheError.from(errno: errno, path: path) }
        var failure: Int32 = 0
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            offset += written
        }
        if failure == 0 && durable && fsync(fd) != 0 { failure = errno }
        // close() reports deferred write errors on NFS, so its result matters.
        if close(fd) != 0 && failure == 0 && errno != EINTR { failure = errno }
        if failure != 0 {
            _ = path.withCString { unlink($0) }
            throw CacheError.from(errno: failure, path: path)
        }
    }

    /// The whole content of a file, or nil if it cannot be read.
    static func readFile(_ path: String) -> [UInt8]? {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        if fd < 0 { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        var result = [UInt8]()
        result.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            result.append(contentsOf: chunk[0..<count])
        }
        return result
    }

    /// Streams a file through `body` in chunks; false if it cannot be read.
    static func forEachChunk(_ path: String, _ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        if fd < 0 { return false }
        defer { close(fd) }
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            if count == 0 { return true }
            chunk.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// Sets access and/or modification time. A nil time is left unchanged (UTIME_OMIT).
    /// Explicit times are honoured on noatime/relatime mounts, which only stop automatic updates.
    @discardableResult
    static func setTimes(_ path: String, access: Double?, modification: Double?) -> Int32 {
        var times = (timespec(seconds: access), timespec(seconds: modification))
        let result = withUnsafePointer(to: &times) { pointer in
            pointer.withMemoryRebound(to: timespec.self, capacity: 2) { spec in
                path.withCString { utimensat(AT_FDCWD, $0, spec, 0) }
            }
        }
        return result == 0 ? 0 : errno
    }

    /// `rename(2)`; returns 0 or errno.
    static func rename(_ from: String, _ to: String) -> Int32 {
        let result = from.withCString { source in to.withCString { Glibc.rename(source, $0) } }
        return result == 0 ? 0 : errno
    }

    /// `unlink(2)`; true if the file was removed.
    @discardableResult
    static func remove(_ path: String) -> Bool {
        path.withCString { unlink($0) } == 0
    }

    /// Names in a directory, without `.` and `..`; empty if it cannot be opened.
    static func entries(of directory: String) -> [String] {
        guard let dir = directory.withCString({ opendir($0) }) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Current wall-clock time, seconds since the epoch.
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

extension timespec {
    /// A timespec for `seconds` since the epoch, or UTIME_OMIT for nil.
    init(seconds: Double?) {
        guard let seconds else {
            self.init(tv_sec: 0, tv_nsec: FileSystem.utimeOmit)
            return
        }
        let whole = seconds.rounded(.down)
        self.init(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
    }

    /// Seconds since the epoch.
    var seconds: Double { Double(tv_sec) + Double(tv_nsec) / 1e9 }
}
