import Foundation
import PrewarmCodec
import PrewarmCore
import Testing

@Suite("Header probe before any pixel is allocated")
struct HeaderProbeTests {
    @Test(
        "sizes match libvips for real files of every decodable format",
        arguments: [
            RealImages.photo, RealImages.hugePhoto, RealImages.transparentPNG, RealImages.webp,
            "\(RealImages.aflImages)/gif/not_kitty.gif", "\(RealImages.aflImages)/png/not_kitty_alpha.png",
            "\(RealImages.aflImages)/webp/not_kitty.webp", "\(RealImages.aflImages)/jpeg/not_kitty.jpg",
        ])
    func sizesMatchVips(path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let info = try ImageDecoding.probe(bytes, maxPixels: .max)
        #expect(info.storedSize == (try DecodeTools.vipsSize(path)))
        #expect(info.frameCount == 1)
        #expect(info.orientation == 1)
    }

    @Test("alpha is reported from PNG colour type and WebP features")
    func alphaFlags() throws {
        func probe(_ path: String) throws -> ImageInfo {
            try ImageDecoding.probe([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), maxPixels: .max)
        }
        #expect(try probe(RealImages.transparentPNG).hasAlpha)
        #expect(try probe("\(RealImages.aflImages)/png/not_kitty_alpha.png").hasAlpha)
        #expect(try !probe("\(RealImages.aflImages)/png/not_kitty.png").hasAlpha)
        #expect(try !probe(RealImages.photo).hasAlpha)
        #expect(try !probe(RealImages.webp).hasAlpha)
    }

    /// An 8-bit RGBA PNG claiming 50,000 × 50,000 pixels, with valid CRCs and almost no data.
    static func bombPNG() -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        let ihdr = bigEndian(50_000) + bigEndian(50_000) + [8, 6, 0, 0, 0]
        // An empty zlib stream (one stored block) as image data, so other readers accept the file.
        let idat: [UInt8] = [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", idat)
            + chunk("IEND", [])
    }

    @Test("a 50,000 × 50,000 PNG header fails as tooManyPixels from the probe")
    func decompressionBomb() throws {
        let bytes = Self.bombPNG()
        // libvips reads the crafted header too: proof the CRC and layout are valid.
        let fixtures = try DecodeFixtures()
        #expect(
            try DecodeTools.vipsSize(try fixtures.write(bytes, as: "bomb.png"))
                == PixelSize(width: 50_000, height: 50_000))
        #expect(
            throws: CodecError.tooManyPixels(PixelSize(width: 50_000, height: 50_000), frames: 1, limit: 100_000_000)
        ) {
            try ImageDecoding.probe(bytes, maxPixels: 100_000_000)
        }
        // With no limit the probe succeeds: the limit, not the header, made it fail.
        #expect(try ImageDecoding.probe(bytes, maxPixels: .max).storedSize.pixelCount == 2_500_000_000)
    }

    @Test("APNG: the probe counts acTL frames; the decode gives the default image")
    func apngFrameCount() throws {
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(RealImages.aflImages)/png/not_kitty.png")))
        let body = Array("acTL".utf8) + bigEndian(3) + bigEndian(0)
        let acTL = bigEndian(8) + body + bigEndian(crc32(body))
        let ihdrEnd = 8 + 12 + 13
        let apng = Array(png[..<ihdrEnd]) + acTL + Array(png[ihdrEnd...])
        let info = try ImageDecoding.probe(apng, maxPixels: .max)
        #expect(info.frameCount == 3)
        let image = try ImageDecoding.decode(apng, info: info, minimumSize: nil, allFrames: true, scaleDownTo: nil)
        #expect(image.frames.count == 1)
        #expect(image.frames[0].buffer.pixels == (try decodeFully(png)).frames[0].buffer.pixels)
    }

    @Test("the pixel limit counts every frame of an animation")
    func limitCountsFrames() throws {
        let fixtures = try DecodeFixtures()
        let gif = try fixtures.bytes(try AnimatedFixtures.gif(in: fixtures))
        let info = try ImageDecoding.probe(gif, maxPixels: .max)
        #expect(info.frameCount == 3)
        let oneFrame = info.storedSize.pixelCount
        #expect(throws: CodecError.tooManyPixels(info.storedSize, frames: 3, limit: oneFrame * 2)) {
            try ImageDecoding.probe(gif, maxPixels: oneFrame * 2)
        }
    }

    @Test("not an image and unsupported formats throw their own errors")
    func errorKinds() {
        #expect(throws: CodecError.notAnImage) { try ImageDecoding.probe(Array("<html></html>".utf8), maxPixels: .max) }
        #expect(throws: CodecError.unsupportedFormat("TIFF")) {
            try ImageDecoding.probe(Array("II*\0\u{8}\0\0\0".utf8), maxPixels: .max)
        }
    }

    @Test("a JPEG cut before its frame header is a probe error; cut after it, a decode error")
    func truncatedHeader() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: RealImages.photo)))  // SOF2 at byte 158
        for length in [3, 4, 20, 100, 160] {
            #expect(throws: CodecError.self) { try ImageDecoding.probe(Array(bytes.prefix(length)), maxPixels: .max) }
        }
        let headerOnly = Array(bytes.prefix(400))
        #expect(try ImageDecoding.probe(headerOnly, maxPixels: .max).storedSize == PixelSize(width: 1600, height: 1203))
        #expect(failsAsDecodeError(headerOnly))
    }
}

func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
}

/// PNG's CRC-32 (ISO 3309, reflected polynomial 0xEDB88320).
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}
