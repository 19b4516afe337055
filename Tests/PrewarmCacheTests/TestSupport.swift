import Foundation
import Glibc

@testable import PrewarmCache

/// A cache in a fresh temp directory, removed when the test ends.
final class TempCache {
    let directory: String
    let cache: DiskCache

    init(durable: Bool = false) throws {
        directory =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("prewarm-cache-test-\(UUID().uuidString)").path
        cache = try DiskCache(root: directory + "/cache", durable: durable)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    var root: String { cache.root }

    func tempFiles() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: root + "/tmp")) ?? []
    }

    func meta(_ key: String, url: String? = nil, format: String = "jpg", fetchedAt: Double)
        -> EntryMetadata
    {
        EntryMetadata(key: key, url: url ?? key, format: format, fetchedAt: fetchedAt)
    }
}

func readBytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}

func fileExists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
}

/// Runs a program and returns its exit status and standard output.
func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// Sets a file's access and modification times (seconds since the epoch).
func setTimes(_ path: String, access: Double, modification: Double) {
    var times = [
        timespec(tv_sec: Int(access), tv_nsec: 0), timespec(tv_sec: Int(modification), tv_nsec: 0),
    ]
    _ = path.withCString { utimensat(AT_FDCWD, $0, &times, 0) }
}

func now() -> Double { Date().timeIntervalSince1970 }
