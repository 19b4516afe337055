import Foundation
import Testing

@testable import PrewarmCodec

/// Every encoder's output is read back by an independent decoder (libvips, djpeg, dwebp, webpinfo).
@Suite("Encoders")
struct EncoderRoundTripTests {
    static let size = PixelSize(width: 67, height: 45)

    @Test("JPEG: right size, 3 bands, djpeg decodes it; alpha is flattened")
    func jpeg() throws {
        let directory = try TemporaryDirectory()
        for alpha in [false, true] {
            let path = try directory.write(
                try JPEGEncoder.encode(SyntheticImages.gradient(Self.size, alpha: alpha), quality: 80), name: "a\(alpha).jpg")
            #expect(try ExternalTools.vipsField("width", of: path) == Self.size.width)
            #expect(try ExternalTools.vipsField("height", of: path) == Self.size.height)
            #expect(try ExternalTools.vipsField("bands", of: path) == 3)
            try ExternalTools.run("djpeg", ["-outfile", "/dev/null", path])
        }
    }

    @Test("JPEG: transparent pixels become white")
    func jpegFlattensOntoWhite() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            try JPEGEncoder.encode(SyntheticImages.solid(Self.size, [0, 0, 0, 0]), quality: 90), name: "white.jpg")
        let pixels = try ExternalTools.rawPixels(of: path, map: "RGB", in: directory.url)
        #expect(pixels.allSatisfy { $0 >= 250 })
    }

    @Test("JPEG: higher quality gives a bigger file")
    func jpegQuality() throws {
        let image = SyntheticImages.gradient(.init(width: 160, height: 120))
        let low = try JPEGEncoder.encode(image, quality: 30)
        let high = try JPEGEncoder.encode(image, quality: 95)
        #expect(low.count < high.count)
    }

    @Test("PNG: RGBA with alpha, RGB without", arguments: [false, true])
    func png(alpha: Bool) throws {
        let directory = try TemporaryDirectory()
        let image = SyntheticImages.gradient(Self.size, alpha: alpha)
        let path = try directory.write(try PNGEncoder.encode(image), name: "a.png")
        #expect(try ExternalTools.vipsField("width", of: path) == Self.size.width)
        #expect(try ExternalTools.vipsField("height", of: path) == Self.size.height)
        #expect(try ExternalTools.vipsField("bands", of: path) == (alpha ? 4 : 3))
        // Lossless: ImageMagick reads back exactly our pixels.
        let readBack = try ExternalTools.rawPixels(of: path, map: alpha ? "RGBA" : "RGB", in: directory.url)
        let expected = alpha
            ? image.pixels
            : image.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        #expect(readBack == expected)
    }

    @Test("WebP: lossy and lossless, alpha kept, dwebp decodes it", arguments: [false, true])
    func webp(lossless: Bool) throws {
        let directory = try TemporaryDirectory()
        for alpha in [false, true] {
            let image = SyntheticImages.gradient(Self.size, alpha: alpha)
            let bytes = try WebPEncoder.encode(image, settings: .init(quality: 80, lossless: lossless))
            let path = try directory.write(bytes, name: "a\(alpha).webp")
            #expect(try ExternalTools.vipsField("width", of: path) == Self.size.width)
            #expect(try ExternalTools.vipsField("height", of: path) == Self.size.height)
            #expect(try ExternalTools.vipsField("bands", of: path) == (alpha ? 4 : 3))
            try ExternalTools.run("dwebp", [path, "-o", "/dev/null"])
            let info = try ExternalTools.run("webpinfo", [path])
            #expect(info.contains(lossless ? "Format: Lossless" : "Format: Lossy"))
        }
    }

    @Test("WebP: three frames make a three-frame animation that loops as asked")
    func animatedWebP() throws {
        let directory = try TemporaryDirectory()
        let frames = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 128]].map { colour in
            Frame(buffer: SyntheticImages.solid(Self.size, colour.map(UInt8.init)), durationMilliseconds: 120)
        }
        let bytes = try WebPEncoder.encodeAnimated(frames, loopCount: 3, settings: .init(quality: 75))
        let path = try directory.write(bytes, name: "anim.webp")
        #expect(try ExternalTools.vipsField("n-pages", of: path) == 3)
        #expect(try ExternalTools.vipsField("loop", of: path) == 3)
        let info = try ExternalTools.run("webpinfo", [path])
        #expect(info.components(separatedBy: "Chunk ANMF").count - 1 == 3)
        #expect(info.contains("Duration: 120"))
    }

    @Test("WebP: frames of different sizes are refused")
    func animatedSizeMismatch() {
        let frames = [
            Frame(buffer: SyntheticImages.solid(.init(width: 4, height: 4), [1, 2, 3, 255]), durationMilliseconds: 50),
            Frame(buffer: SyntheticImages.solid(.init(width: 5, height: 4), [1, 2, 3, 255]), durationMilliseconds: 50),
        ]
        #expect(throws: CodecError.self) {
            try WebPEncoder.encodeAnimated(frames, loopCount: 0, settings: .init(quality: 75))
        }
    }
}
