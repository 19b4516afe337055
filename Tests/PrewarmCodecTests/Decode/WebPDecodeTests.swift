import Foundation
import PrewarmCodec
import PrewarmCore
import Testing

@Suite("WebP decoding with libwebp")
struct WebPDecodeTests {
    let fixtures: DecodeFixtures
    init() throws { fixtures = try DecodeFixtures() }

    /// dwebp's output for `path` as RGBA, optionally scaled.
    private func dwebp(_ path: String, scale: PixelSize? = nil) throws -> PixelBuffer {
        let scaling = scale.map { ["-scale", "\($0.width)", "\($0.height)"] } ?? []
        return try PortableMap.rgba(try DecodeTools.run("dwebp", [path, "-pam"] + scaling + ["-o", "-"]))
    }

    @Test("lossy WebP matches dwebp")
    func lossy() throws {
        let source = try fixtures.convert([try SmallSources.photo(), "-resize", "64x48!"], output: "lossy-src.png")
        let path = fixtures.path("lossy.webp")
        try DecodeTools.run("cwebp", ["-quiet", "-q", "80", source, "-o", path])
        let bytes = try fixtures.bytes(path)
        let info = try ImageDecoding.probe(bytes, maxPixels: .max)
        #expect(!info.hasAlpha)
        let buffer = try decodeFully(bytes).frames[0].buffer
        #expect(buffer.size == (try DecodeTools.vipsSize(path)))
        #expect(!buffer.hasAlpha)
        #expect(DecodeTools.meanAbsoluteError(buffer.pixels, try dwebp(path).pixels) < 0.5)
    }

    @Test("lossless WebP with alpha reproduces its source PNG exactly")
    func losslessAlpha() throws {
        let source = try fixtures.convert(
            [try SmallSources.transparent(), "-resize", "64x36!"], output: "alpha-src.png")
        let path = fixtures.path("lossless.webp")
        try DecodeTools.run("cwebp", ["-quiet", "-lossless", "-exact", source, "-o", path])
        let bytes = try fixtures.bytes(path)
        #expect(try ImageDecoding.probe(bytes, maxPixels: .max).hasAlpha)
        let buffer = try decodeFully(bytes).frames[0].buffer
        #expect(buffer.hasAlpha)
        #expect(visibleMeanAbsoluteError(buffer.pixels, try DecodeTools.referenceRGBA(source)) == 0)
    }

    @Test("the afl++ WebP seed matches dwebp")
    func aflSeed() throws {
        let path = "\(RealImages.aflImages)/webp/not_kitty.webp"
        let buffer = try decodeFully(try fixtures.bytes(path)).frames[0].buffer
        #expect(buffer.size == PixelSize(width: 32, height: 32))
        #expect(DecodeTools.meanAbsoluteError(buffer.pixels, try dwebp(path).pixels) < 0.5)
    }

    @Test("a 4096×4096 WebP decodes scaled: minimumSize 500×500 gives 1/4, as dwebp -scale does")
    func scaledDecode() throws {
        let bytes = try fixtures.bytes(RealImages.webp)
        let info = try ImageDecoding.probe(bytes, maxPixels: .max)
        #expect(info.storedSize == PixelSize(width: 4096, height: 4096))
        let image = try ImageDecoding.decode(
            bytes, info: info, minimumSize: PixelSize(width: 500, height: 500), allFrames: false, scaleDownTo: nil)
        let buffer = image.frames[0].buffer
        // 4096/8 = 512 is under 2 × 500, 4096/4 = 1024 is not.
        #expect(buffer.size == PixelSize(width: 1024, height: 1024))
        #expect(image.sourceSize == info.storedSize)
        let reference = try dwebp(RealImages.webp, scale: buffer.size)
        #expect(DecodeTools.meanAbsoluteError(buffer.pixels, reference.pixels) < 0.5)
    }

    @Test("scale_down_large_images: 4096×4096 (16.8 MP) decodes at 1/2 to fit 16.7 MP")
    func scaleDownLarge() throws {
        let bytes = try fixtures.bytes(RealImages.webp)
        let info = try ImageDecoding.probe(bytes, maxPixels: .max)
        let image = try ImageDecoding.decode(
            bytes, info: info, minimumSize: nil, allFrames: false, scaleDownTo: 16_700_000)
        #expect(image.frames[0].buffer.size == PixelSize(width: 2048, height: 2048))
    }

    @Test("animated WebP: every composited frame, durations and loop count")
    func animation() throws {
        let path = try AnimatedFixtures.webp(in: fixtures)
        let bytes = try fixtures.bytes(path)
        let info = try ImageDecoding.probe(bytes, maxPixels: .max)
        #expect(info.frameCount == 3)
        #expect(
            info.frameCount
                == Int(
                    String(decoding: try DecodeTools.run("vipsheader", ["-f", "n-pages", path]), as: UTF8.self)
                        .trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(info.storedSize == AnimatedFixtures.frameSize)
        let image = try ImageDecoding.decode(bytes, info: info, minimumSize: nil, allFrames: true, scaleDownTo: nil)
        #expect(image.frames.count == 3)
        #expect(image.loopCount == 0)
        #expect(image.frames.map(\.durationMilliseconds) == [100, 100, 100])
        // Lossless frames covering the canvas: each equals its source PNG.
        for (frame, source) in zip(image.frames, try AnimatedFixtures.framePNGs(in: fixtures)) {
            #expect(DecodeTools.meanAbsoluteError(frame.buffer.pixels, try DecodeTools.referenceRGBA(source)) == 0)
        }
        let first = try ImageDecoding.decode(bytes, info: info, minimumSize: nil, allFrames: false, scaleDownTo: nil)
        #expect(first.frames.count == 1)
        #expect(first.frames[0].buffer.pixels == image.frames[0].buffer.pixels)
    }

    @Test("truncated WebP is a decode error")
    func truncated() throws {
        let still = DecodeTools.truncated(try fixtures.bytes("\(RealImages.aflImages)/webp/not_kitty.webp"))
        #expect(failsAsDecodeError(still))
        let animation = DecodeTools.truncated(try fixtures.bytes(try AnimatedFixtures.webp(in: fixtures)))
        #expect(failsAsDecodeError(animation))
    }

    @Test("WebP with damaged data is a decode error")
    func corrupt() throws {
        let source = try fixtures.convert([try SmallSources.transparent(), "-resize", "64x36!"], output: "c-src.png")
        let path = fixtures.path("c.webp")
        try DecodeTools.run("cwebp", ["-quiet", "-lossless", source, "-o", path])
        let bytes = DecodeTools.corrupted(try fixtures.bytes(path), count: 16)
        #expect(failsAsDecodeError(bytes))
    }
}
