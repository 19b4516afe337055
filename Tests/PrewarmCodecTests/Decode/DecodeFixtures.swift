import Foundation
import PrewarmCodec
import Testing

/// Real images shipped by Debian packages; fixtures are made from them with ImageMagick.
enum RealImages {
    static let aflImages = "/usr/share/doc/afl++-doc/afl/testcases/images"
    static let photo = "/usr/share/backgrounds/mate/nature/FreshFlower.jpg"  // 1600×1203
    static let hugePhoto = "/usr/share/backgrounds/mate/abstract/Elephants_5640x3172.jpg"
    static let transparentPNG = "/usr/share/backgrounds/mate/abstract/Arc-Colors-Transparent-Wallpaper.png"
    static let webp = "/usr/share/backgrounds/gnome/adwaita-d.webp"  // 4096×4096 lossy
}

/// Downsized lossless copies of the real photo (400×300) and transparent wallpaper (256×144), made
/// once per test run, so ImageMagick does not decode a multi-megapixel source for every small
/// fixture. Removed when the test process exits.
enum SmallSources {
    private static let prepared: Result<String, any Error> = Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "prewarm-decode-sources-\(UUID())"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: SmallSources.directoryForCleanup) }
        try DecodeTools.run("convert", [RealImages.photo, "-resize", "400x300!", "\(directory)/photo.png"])
        try DecodeTools.run(
            "convert", [RealImages.transparentPNG, "-resize", "256x144!", "PNG32:\(directory)/transparent.png"])
        return directory
    }

    fileprivate static var directoryForCleanup: String { (try? prepared.get()) ?? "/nonexistent" }

    /// The photo at 400×300 (PNG).
    static func photo() throws -> String { try prepared.get() + "/photo.png" }
    /// The transparent wallpaper at 256×144 (RGBA PNG).
    static func transparent() throws -> String { try prepared.get() + "/transparent.png" }
}

/// A temporary folder of fixtures, removed when the test that made it ends, plus the independent
/// tools (ImageMagick's convert, libvips) that the decoders are checked against.
final class DecodeFixtures {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("prewarm-decode-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Runs ImageMagick's `convert` with `arguments` and returns the path of `output` (in the folder).
    @discardableResult
    func convert(_ arguments: [String], output: String) throws -> String {
        let target = path(output)
        try DecodeTools.run("convert", arguments + [target])
        return target
    }

    func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    func write(_ bytes: [UInt8], as name: String) throws -> String {
        let target = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }
}

enum DecodeTools {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs a tool found on PATH and returns its standard output.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return data
    }

    /// Width and height as libvips reads them: an independent decoder.
    static func vipsSize(_ path: String) throws -> PixelSize {
        func field(_ name: String) throws -> Int {
            let text = String(decoding: try run("vipsheader", ["-f", name, path]), as: UTF8.self)
            guard let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw Failure(description: "vipsheader -f \(name) \(path) gave \(text)")
            }
            return value
        }
        return PixelSize(width: try field("width"), height: try field("height"))
    }

    /// 8-bit RGBA pixels as ImageMagick decodes `path`, after `operations` (e.g. -auto-orient).
    static func referenceRGBA(_ path: String, _ operations: [String] = []) throws -> [UInt8] {
        [UInt8](try run("convert", [path] + operations + ["-colorspace", "sRGB", "-depth", "8", "rgba:-"]))
    }

    /// Mean absolute difference per channel byte; RGB only when `includeAlpha` is false.
    /// Buffers of different sizes record an issue and compare as infinitely different.
    static func meanAbsoluteError(_ a: [UInt8], _ b: [UInt8], includeAlpha: Bool = true) -> Double {
        guard a.count == b.count else {
            Issue.record("buffers differ in size: \(a.count) vs \(b.count) bytes")
            return .infinity
        }
        var total = 0
        var count = 0
        for index in a.indices where includeAlpha || index % 4 != 3 {
            total += abs(Int(a[index]) - Int(b[index]))
            count += 1
        }
        return Double(total) / Double(max(count, 1))
    }

    /// A copy cut to its first half: a download that stopped early.
    static func truncated(_ bytes: [UInt8]) -> [UInt8] { Array(bytes.prefix(bytes.count / 2)) }

    /// A copy with `count` bytes in the middle inverted: damage the container does not notice.
    static func corrupted(_ bytes: [UInt8], count: Int = 64) -> [UInt8] {
        var copy = bytes
        let start = bytes.count / 2
        for index in start..<min(start + count, bytes.count) { copy[index] ^= 0xFF }
        return copy
    }
}

/// Probes and decodes `bytes` with no pixel limit, first frame only unless asked.
func decodeFully(_ bytes: [UInt8], minimumSize: PixelSize? = nil, allFrames: Bool = false) throws -> DecodedImage {
    let info = try ImageDecoding.probe(bytes, maxPixels: .max)
    return try ImageDecoding.decode(bytes, info: info, minimumSize: minimumSize, allFrames: allFrames, scaleDownTo: nil)
}

/// The decode error `bytes` give (probe or decode), or nil if they decode.
func decodeError(_ bytes: [UInt8], allFrames: Bool = true) -> CodecError? {
    do {
        let info = try ImageDecoding.probe(bytes, maxPixels: .max)
        _ = try ImageDecoding.decode(bytes, info: info, minimumSize: nil, allFrames: allFrames, scaleDownTo: nil)
        return nil
    } catch {
        return error
    }
}

/// Whether `bytes` fail (probe or decode) with CodecError.decode; records the outcome otherwise.
/// Kept out of #expect so a failure does not print every byte.
func failsAsDecodeError(_ bytes: [UInt8], allFrames: Bool = true) -> Bool {
    switch decodeError(bytes, allFrames: allFrames) {
    case .decode?: return true
    case nil:
        Issue.record("damaged data decoded without an error")
        return false
    case let other?:
        Issue.record("expected a decode error, got \(other)")
        return false
    }
}
