import Foundation
import PrewarmCodec
import PrewarmCore
import Testing

@Suite("PNG decoding with libpng")
struct PNGDecodeTests {
    let fixtures: DecodeFixtures
    init() throws { fixtures = try DecodeFixtures() }

    /// A 64×36 PNG made from the real transparent wallpaper with extra ImageMagick options.
    private func small(_ name: String, _ options: [String], prefix: String = "") throws -> String {
        let target = fixtures.path(name)
        try DecodeTools.run(
            "convert", [try SmallSources.transparent(), "-resize", "64x36!"] + options + [prefix + target])
        return target
    }

    /// Decodes `path`, checks its size against libvips and its pixels against ImageMagick.
    @discardableResult
    private func expectMatchesReference(_ path: String, tolerance: Double = 0.5) throws -> PixelBuffer {
        let image = try decodeFully(try fixtures.bytes(path))
        let buffer = image.frames[0].buffer
        #expect(buffer.size == (try DecodeTools.vipsSize(path)))
        let error = visibleMeanAbsoluteError(buffer.pixels, try DecodeTools.referenceRGBA(path))
        #expect(error < tolerance, "mean absolute error \(error) against ImageMagick")
        return buffer
    }

    /// IHDR's bit depth, colour type and interlace method.
    private func header(_ path: String) throws -> (depth: UInt8, colourType: UInt8, interlace: UInt8) {
        let bytes = try fixtures.bytes(path)
        return (bytes[24], bytes[25], bytes[28])
    }

    @Test("8-bit RGBA keeps its alpha")
    func rgba() throws {
        let path = try small("rgba.png", [], prefix: "PNG32:")
        #expect(try header(path).colourType == 6)
        let buffer = try expectMatchesReference(path)
        #expect(buffer.hasAlpha)
        #expect(stride(from: 3, to: buffer.pixels.count, by: 4).contains { buffer.pixels[$0] < 255 })
    }

    @Test("16-bit RGBA is reduced to 8 bits")
    func sixteenBit() throws {
        let path = try small("rgba16.png", ["-depth", "16"], prefix: "PNG64:")
        #expect(try header(path).depth == 16)
        try expectMatchesReference(path, tolerance: 1)
    }

    @Test("Adam7-interlaced PNG")
    func interlaced() throws {
        let path = try small("interlaced.png", ["-interlace", "PNG"])
        #expect(try header(path).interlace == 1)
        try expectMatchesReference(path)
    }

    @Test("palette PNG with tRNS transparency")
    func paletteWithTransparency() throws {
        let palette = fixtures.path("pal.png")
        try DecodeTools.run(
            "convert", [try SmallSources.transparent(), "-resize", "64x36!", "-colors", "16", "PNG8:\(palette)"])
        #expect(try header(palette).colourType == 3)
        let info = try ImageDecoding.probe(try fixtures.bytes(palette), maxPixels: .max)
        #expect(info.hasAlpha)
        let buffer = try expectMatchesReference(palette)
        #expect(buffer.hasAlpha)
    }

    @Test("grey + alpha PNG")
    func greyAlpha() throws {
        let path = try small("ga.png", ["-colorspace", "Gray", "-define", "png:color-type=4"])
        #expect(try header(path).colourType == 4)
        let buffer = try expectMatchesReference(path)
        #expect(buffer.hasAlpha)
    }

    @Test("1-bit and 8-bit grey PNG without alpha")
    func grey() throws {
        let oneBit = try small("mono.png", ["-background", "white", "-flatten", "-monochrome"])
        #expect(try header(oneBit).depth == 1)
        #expect(try !expectMatchesReference(oneBit).hasAlpha)
        let eightBit = try small(
            "grey.png", ["-background", "white", "-flatten", "-colorspace", "Gray", "-define", "png:color-type=0"])
        #expect(try header(eightBit).colourType == 0)
        #expect(try !expectMatchesReference(eightBit).hasAlpha)
    }

    @Test(
        "the afl++ PNG seeds (alpha, gamma, ICC) match ImageMagick",
        arguments: ["not_kitty", "not_kitty_alpha", "not_kitty_gamma", "not_kitty_icc"])
    func aflSeeds(name: String) throws {
        try expectMatchesReference("\(RealImages.aflImages)/png/\(name).png", tolerance: 1)
    }

    @Test("truncated PNG is a decode error")
    func truncated() throws {
        let bytes = DecodeTools.truncated(try fixtures.bytes(RealImages.transparentPNG))
        #expect(failsAsDecodeError(bytes))
    }

    @Test("PNG with damaged image data is a decode error")
    func corrupt() throws {
        let bytes = DecodeTools.corrupted(try fixtures.bytes(RealImages.transparentPNG))
        #expect(failsAsDecodeError(bytes))
    }
}
