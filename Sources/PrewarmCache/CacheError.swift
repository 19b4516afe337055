import Glibc

/// Why a cache operation failed. Every message names the path and says what to do next; the CLI
/// maps `notWritable` and `diskFull` to exit code 3 and `lockHeld` to exit code 4.
public enum CacheError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The cache cannot be written (permissions, read-only file system). Path, detail.
    case notWritable(String, String)
    /// No space or quota left on the cache's file system. Path.
    case diskFull(String)
    /// Another process holds this job's lock. `holder` is what the lock file says (pid, host).
    case lockHeld(job: String, holder: String)
    /// Any other I/O failure. Path, detail.
    case io(String, String)
    /// A cache file is unreadable or inconsistent. Path, detail.
    case corrupt(String, String)

    public var description: String {
        switch self {
        case .notWritable(let path, let detail):
            return
                "cache not writable: \(path): \(detail); fix the permissions or choose another cache with --cache"
        case .diskFull(let path):
            return
                "disk full while writing \(path); free space, lower cache.max_size or run `prewarm cache clean`"
        case .lockHeld(let job, let holder):
            return
                "job '\(job)' is already running (lock held by \(holder)); wait for it to finish or stop it"
        case .io(let path, let detail):
            return "cache I/O error: \(path): \(detail)"
        case .corrupt(let path, let detail):
            return "cache entry corrupt: \(path): \(detail); run `prewarm cache verify --fix`"
        }
    }

    /// Maps an `errno` from a failed system call on `path` to the error the CLI understands.
    static func from(errno code: Int32, path: String) -> CacheError {
        switch code {
        case ENOSPC, EDQUOT: return .diskFull(path)
        case EACCES, EROFS, EPERM: return .notWritable(path, String(cString: strerror(code)))
        default: return .io(path, String(cString: strerror(code)))
        }
    }
}
