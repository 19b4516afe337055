import Foundation
import PrewarmCore
import Testing

/// Decode once, write every variant — through a real run, checked with an independent decoder
/// (vipsheader from libvips-tools).
@Suite struct VariantRunTests {
    /// `vipsheader -f FIELD FILE`.
    private func vipsheader(_ field: String, _ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/vipsheader")
        process.arguments = ["-f", field, path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// ImageMagick's `convert ARGS...`, to build fixtures from the real images.
    private func convert(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/convert")
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "convert \(arguments.joined(separator: " "))")
    }

    @Test func everyFitGivesTheExpectedSizeAndAlphaSurvives() async throws {
        let harness = try RunHarness()
        let manifest = try harness.manifest(
            """
            version: 1
            defaults:
              variants:
                - { name: contain, width: 20, height: 20, fit: contain, format: png }
                - { name: cover, width: 20, height: 10, fit: cover, format: webp }
                - { name: fill, width: 7, height: 30, fit: fill, format: jpeg }
                - { name: auto, width: 16, format: auto }
                - { name: clear, width: 20, height: 20, fit: contain, format: webp }
            groups:
              - { name: g, urls: ["${ORIGIN}/files/kitty-alpha.png", "${ORIGIN}/files/flower.jpg"] }
            """)
        let run = await harness.run(manifest)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.totals["variants_written"] == 10)
        for name in ["kitty-alpha.png", "flower.jpg"] {
            let source = RunHarness.fixtures[name]!
            let width = Double(try vipsheader("width", source))!
            let height = Double(try vipsheader("height", source))!
            let variants = try #require(run.event(name)?["variants"] as? [String: String])
            let contain = try #require(variants["contain"])
            let scale = min(20 / width, 20 / height)
            #expect(try vipsheader("width", contain) == String(Int((width * scale).rounded())))
            #expect(try vipsheader("height", contain) == String(Int((height * scale).rounded())))
            let cover = try #require(variants["cover"])
            #expect(try vipsheader("width", cover) == "20")
            #expect(try vipsheader("height", cover) == "10")
            let fill = try #require(variants["fill"])
            #expect(try vipsheader("width", fill) == "7")
            #expect(try vipsheader("height", fill) == "30")
            let auto = try #require(variants["auto"])
            if name == "kitty-alpha.png" {
                #expect(contain.hasSuffix(".png") && auto.hasSuffix(".png"), "auto with alpha → png")
                #expect(try vipsheader("bands", contain) == "4", "alpha survives into png")
                #expect(try vipsheader("bands", try #require(variants["clear"])) == "4", "alpha survives into webp")
                #expect(try vipsheader("bands", fill) == "3", "jpeg has no alpha")
            } else {
                #expect(auto.hasSuffix(".jpg"), "auto without alpha → jpeg")
            }
        }
    }

    @Test func orientedJPEGsComeOutUpright() async throws {
        let harness = try RunHarness()
        let source = RunHarness.fixtures["flower.jpg"]!
        // ImageMagick transforms the pixels the inverse way of each EXIF orientation, then the
        // tag is spliced in: an upright decode gives the 60×40 landscape back.
        let inverse = ["", "-flop", "-rotate 180", "-flip", "-transpose", "-rotate 270", "-transverse", "-rotate 90"]
        var urls: [String] = []
        for (index, transform) in inverse.enumerated() {
            let plain = harness.directory + "/plain-\(index + 1).jpg"
            try convert([source, "-resize", "60x40!"] + transform.split(separator: " ").map(String.init) + ["-strip", plain])
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: plain)))
            harness.origin.setFile("o\(index + 1).jpg", contents: Self.withOrientation(bytes, UInt16(index + 1)))
            urls.append("\"${ORIGIN}/files/o\(index + 1).jpg\"")
        }
        let manifest = try harness.manifest(
            """
            version: 1
            defaults:
              variants: [{ name: same, width: 60, height: 40, fit: contain, format: png }]
            groups:
              - { name: g, urls: [\(urls.joined(separator: ", "))] }
            """)
        let run = await harness.run(manifest)
        #expect(run.status == 0, "\(run.error)")
        for index in 1...8 {
            let path = try #require((run.event("o\(index).jpg")?["variants"] as? [String: String])?["same"])
            #expect(try vipsheader("width", path) == "60", "orientation \(index)")
            #expect(try vipsheader("height", path) == "40", "orientation \(index)")
        }
    }

    @Test func animatedGIFGivesAnimatedWebPWithTheSameFrames() async throws {
        let harness = try RunHarness()
        let source = RunHarness.fixtures["flower.jpg"]!
        let gif = harness.directory + "/origin/anim.gif"
        try convert([
            "-delay", "10", "-loop", "0", "(", source, "-resize", "40x30!", ")", "(", source, "-resize", "40x30!", "-negate", ")",
            "(", source, "-resize", "40x30!", "-flip", ")", gif,
        ])
        let manifest = try harness.manifest(
            """
            version: 1
            defaults:
              variants: [{ name: anim, width: 20, format: auto }]
            groups:
              - { name: g, urls: ["${ORIGIN}/files/anim.gif"] }
            """)
        let run = await harness.run(manifest)
        let path = try #require((run.event("anim.gif")?["variants"] as? [String: String])?["anim"])
        #expect(path.hasSuffix(".webp"))
        #expect(try vipsheader("n-pages", path) == "3")
        #expect(try vipsheader("n-pages", gif) == "3")
    }

    @Test func corruptAndHostileImagesFailWithNothingStored() async throws {
        let harness = try RunHarness()
        let flower = Array(try Data(contentsOf: URL(fileURLWithPath: RunHarness.fixtures["flower.jpg"]!)))
        harness.origin.setFile("cut.jpg", contents: Array(flower.prefix(flower.count / 2)))
        var flipped = flower
        for index in stride(from: flower.count / 2, to: flower.count / 2 + 64, by: 1) { flipped[index] ^= 0xA5 }
        harness.origin.setFile("flipped.jpg", contents: flipped)
        let kitty = Array(try Data(contentsOf: URL(fileURLWithPath: RunHarness.fixtures["kitty.png"]!)))
        harness.origin.setFile("cut.png", contents: Array(kitty.prefix(kitty.count / 2)))
        harness.origin.setFile("bomb.png", contents: Self.pngHeader(width: 50_000, height: 50_000))
        harness.origin.setFile("fake.avif", contents: [0, 0, 0, 0x1c] + Array("ftypavif".utf8) + Array(repeating: 0, count: 32))
        let manifest = try harness.manifest(
            """
            version: 1
            defaults:
              variants: [{ name: v, width: 16 }]
            groups:
              - name: g
                urls: ["${ORIGIN}/files/cut.jpg", "${ORIGIN}/files/flipped.jpg", "${ORIGIN}/files/cut.png",
                       "${ORIGIN}/files/bomb.png", "${ORIGIN}/files/fake.avif"]
            """)
        let run = await harness.run(manifest)
        #expect(run.event("cut.jpg")?["reason"] as? String == "decode")
        #expect(run.event("flipped.jpg")?["reason"] as? String == "decode")
        #expect(run.event("cut.png")?["reason"] as? String == "decode")
        #expect(run.event("bomb.png")?["reason"] as? String == "too_many_pixels")
        #expect(run.event("fake.avif")?["reason"] as? String == "unsupported_format")
        #expect((run.event("fake.avif")?["detail"] as? String)?.contains("AVIF") == true)
        #expect(harness.cacheFiles().isEmpty, "no original and no variant of a bad image is stored")
        // Permanent: blacklisted on the next run, nothing fetched again.
        harness.origin.resetCounters()
        let again = await harness.run(manifest)
        #expect(again.totals["blacklisted"] == 5)
        #expect(harness.origin.totalRequests == 0)
    }

    /// `jpeg` with an EXIF APP1 segment (big-endian TIFF) holding only an Orientation tag.
    static func withOrientation(_ jpeg: [UInt8], _ orientation: UInt16) -> [UInt8] {
        func u16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xff)] }
        let tiff: [UInt8] = Array("MM".utf8) + u16(42) + [0, 0, 0, 8] + u16(1)
            + u16(0x0112) + u16(3) + [0, 0, 0, 1] + u16(orientation) + [0, 0] + [0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        return [0xFF, 0xD8, 0xFF, 0xE1] + u16(UInt16(payload.count + 2)) + payload + jpeg.dropFirst(2)
    }

    /// A valid PNG signature and IHDR claiming `width`×`height` RGBA, then nothing: a decompression
    /// bomb's header.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        var ihdr: [UInt8] = Array("IHDR".utf8)
        for value in [width, height] { ihdr += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        ihdr += [8, 6, 0, 0, 0]
        let crc = crc32(ihdr)
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + ihdr
            + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) }
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
