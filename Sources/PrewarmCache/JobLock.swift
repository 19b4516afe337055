import Foundation
import Glibc
import Synchronization

/// Stops two runs of the same job overlapping on one cache: an exclusive flock(2) on
/// `<root>/locks/<job>.lock`, which records the holder's pid and host for the error message.
///
/// The lock belongs to the open file, so it vanishes when the process dies — no stale locks after a
/// crash. The file itself is never deleted (deleting it would let a second run lock a new inode
/// while the first still holds the old one). On NFS, flock(2) is honoured across hosts with NFSv4,
/// and with NFSv3 only through Linux's lockd emulation (mounts without `nolock`/`local_lock`).
/// The descriptor is O_CLOEXEC, so spawned programs do not keep the lock past their exec.
public final class JobLock: Sendable {
    public let job: String
    public let path: String
    private let descriptor: Mutex<Int32>

    init(job: String, path: String) throws(CacheError) {
        self.job = job
        self.path = path
        let fd = path.withCString { open($0, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) }
        if fd < 0 { throw CacheError.from(errno: errno, path: path) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            let holder = Self.readHolder(fd)
            close(fd)
            if code == EWOULDBLOCK {
                throw CacheError.lockHeld(
                    job: job, holder: holder.isEmpty ? "another process" : holder)
            }
            throw CacheError.from(errno: code, path: path)
        }
        let note = Array("pid \(getpid()) on \(Self.hostName())\n".utf8)
        if ftruncate(fd, 0) == 0 {
            _ = note.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
        descriptor = Mutex(fd)
    }

    deinit { release() }

    /// Releases the lock; later calls do nothing.
    public func release() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            close(fd)  // closing the descriptor drops the flock
            fd = -1
        }
    }

    /// Whether this object still holds the lock.
    public var isHeld: Bool { descriptor.withLock { $0 >= 0 } }

    private static func readHolder(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return "" }
        return String(decoding: buffer[0..<count], as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown host" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}

extension DiskCache {
    /// Takes the run lock of `job`; throws `CacheError.lockHeld` while another process (or another
    /// `JobLock` in this one) holds it. The lock is released by `release()` or when the `JobLock`
    /// is deallocated.
    public func lockJob(_ job: String) throws(CacheError) -> JobLock {
        try JobLock(job: job, path: layout.lockFile(job: job))
    }
}
