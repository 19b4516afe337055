import Foundation
import Glibc
import PrewarmCore

/// Temp files live in `<root>/tmp/` (same file system as the entries, so rename(2) is atomic) and
/// are named `<pid>-<host>-<random>.tmp`: `host` is 8 hex digits of the host name's SHA-256.
///
/// A later run sweeps leftovers of crashed runs: a file older than one hour always goes; a younger
/// one goes when it was made on this host by a process that no longer exists
/// (`kill(pid, 0)` fails with ESRCH). On a cache shared over NFS the pid of another host means
/// nothing here, so other hosts' files are left to the one-hour rule — which is why the host is in
/// the name. Directories being deleted by `clear()` use the suffix `.trash` and the same rules.
enum TempFiles {
    /// Files older than this are leftovers whatever their owner.
    static let maximumAge: Double = 3600

    static let hostTag: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        let name =
            gethostname(&buffer, buffer.count - 1) == 0
            ? buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : "unknown"
        return String(SHA256.hex(name).prefix(8))
    }()

    static let processID = getpid()

    /// A fresh, unique temp name (no directory).
    static func makeName(suffix: String = "tmp") -> String {
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return "\(processID)-\(hostTag)-\(random).\(suffix)"
    }

    /// True when the temp file `name`, last modified at `modified`, is a leftover.
    static func isLeftover(name: String, modified: Double, now: Double) -> Bool {
        if now - modified > maximumAge { return true }
        let parts = name.split(separator: "-", maxSplits: 2)
        guard parts.count == 3, let pid = Int32(parts[0]), parts[1] == hostTag else { return false }
        if pid == processID { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Removes leftovers from `directory`; returns how many were removed.
    @discardableResult
    static func sweep(directory: String, now: Double) -> Int {
        var removed = 0
        for name in FileSystem.entries(of: directory) {
            let path = directory + "/" + name
            guard let info = FileSystem.status(path),
                isLeftover(name: name, modified: info.st_mtim.seconds, now: now)
            else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                if (try? FileManager.default.removeItem(atPath: path)) != nil { removed += 1 }
            } else if FileSystem.remove(path) {
                removed += 1
            }
        }
        return removed
    }

    /// How many leftovers `sweep` would remove now.
    static func countLeftovers(directory: String, now: Double) -> Int {
        FileSystem.entries(of: directory).reduce(0) { count, name in
            guard let info = FileSystem.status(directory + "/" + name) else { return count }
            return isLeftover(name: name, modified: info.st_mtim.seconds, now: now)
                ? count + 1 : count
        }
    }
}
