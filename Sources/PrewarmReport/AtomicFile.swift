import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a file so readers see either the old content or the new, never a mix: a temporary file
/// in the same folder (rename is only atomic within one file system), fsync, then rename over the
/// destination. On failure the temporary file is removed.
enum AtomicFile {
    struct WriteError: Error, CustomStringConvertible {
        var path: String
        var message: String
        var description: String { "\(path): cannot write: \(message)" }
    }

    static func write(_ data: Data, to path: String) throws(WriteError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        // A dot name that the textfile collector (which reads *.prom) and `ls` both ignore.
        let temporary = folder + "/." + url.lastPathComponent + ".tmp-" + UUID().uuidString
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError(path: path, message: Self.errnoMessage()) }
        var failure: String?
        data.withUnsafeBytes { buffer in
            if !FileDescriptorOutput.writeAll(fd: fd, buffer) { failure = Self.errnoMessage() }
        }
        if failure == nil && fsync(fd) != 0 { failure = Self.errnoMessage() }
        if close(fd) != 0 && failure == nil { failure = Self.errnoMessage() }
        if failure == nil && rename(temporary, path) != 0 { failure = Self.errnoMessage() }
        if let failure {
            unlink(temporary)
            throw WriteError(path: path, message: failure)
        }
    }

    static func errnoMessage() -> String { String(cString: strerror(errno)) }
}

/// Writing whole buffers to a file descriptor, retrying short writes and EINTR.
enum FileDescriptorOutput {
    static func writeAll(fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        guard var pointer = buffer.baseAddress else { return true }
        var remaining = buffer.count
        while remaining > 0 {
            let written = Glibc.write(fd, pointer, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            pointer += written
            remaining -= written
        }
        return true
    }

    static func writeAll(fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { writeAll(fd: fd, $0) }
    }
}
