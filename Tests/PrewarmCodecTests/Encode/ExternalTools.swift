import Foundation
import Testing

/// Independent tools (libvips, libwebp's and libjpeg-turbo's command-line programs, ImageMagick)
/// that check what our encoders wrote, so a bug cannot hide behind our own decoder.
enum ExternalTools {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `tool` with `arguments`; returns stdout. Throws when it exits non-zero.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// One `vipsheader -f FIELD` value as an integer.
    static func vipsField(_ field: String, of path: String) throws -> Int {
        let text = try run("vipsheader", ["-f", field, path])
        guard let value = Int(text) else { throw Failure(description: "vipsheader \(field): \(text)") }
        return value
    }

    /// Raw interleaved 8-bit pixels of `path` through ImageMagick (`map` "RGB" or "RGBA").
    static func rawPixels(of path: String, map: String, in directory: URL) throws -> [UInt8] {
        let raw = directory.appendingPathComponent(UUID().uuidString + ".raw").path
        try run("convert", [path, "-depth", "8", "\(map.lowercased()):\(raw)"])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }
}

/// A temporary directory removed at the end of the test.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-encode-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `bytes` to `name` and returns the path.
    func write(_ bytes: [UInt8], name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file.path
    }
}
