import Foundation
import PrewarmCore
import Testing

@testable import PrewarmCodec

@Suite("Variant renderer")
struct VariantRendererTests {
    static let afl = "/usr/share/doc/afl++-doc/afl/testcases/images"

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A three-frame GIF made by ImageMagick from afl's tiny GIF (frame, negated, flipped).
    static func animatedGIF(in directory: TemporaryDirectory) throws -> [UInt8] {
        let path = directory.url.appendingPathComponent("anim.gif").path
        try ExternalTools.run(
            "convert",
            ["\(afl)/gif/not_kitty.gif", "(", "+clone", "-negate", ")", "(", "+clone", "-flip", ")",
             "-set", "delay", "20", "-loop", "0", path])
        return try bytes(path)
    }

    @Test("one JPEG decode gives every variant, each checked by vipsheader")
    func realJPEG() throws {
        let directory = try TemporaryDirectory()
        let source = try Self.bytes("/usr/share/backgrounds/mate/abstract/Elephants.jpg")  // 1920×1080
        let variants = [
            VariantRequest(name: "thumb", width: 320, height: 320, fit: .cover, format: .webp, quality: 80),
            VariantRequest(name: "medium", width: 800, format: .jpeg, quality: 85),
            VariantRequest(name: "tall", height: 90, format: .auto),
            VariantRequest(name: "huge", width: 4000, format: .png, enlarge: false),
        ]
        let (info, rendered) = try VariantRenderer.render(source, variants: variants, options: RenderOptions())
        #expect(info.format == .jpeg)
        #expect(rendered.map(\.name) == ["thumb", "medium", "tall", "huge"])
        let expected: [(ImageFormat, Int, Int, Int)] = [
            (.webp, 320, 320, 3), (.jpeg, 800, 450, 3), (.jpeg, 160, 90, 3), (.png, 1920, 1080, 3),
        ]
        for (variant, (format, width, height, bands)) in zip(rendered, expected) {
            #expect(variant.format == format)
            #expect(variant.size == PixelSize(width: width, height: height))
            let path = try directory.write(variant.bytes, name: "\(variant.name).\(format.fileExtension)")
            #expect(try ExternalTools.vipsField("width", of: path) == width)
            #expect(try ExternalTools.vipsField("height", of: path) == height)
            #expect(try ExternalTools.vipsField("bands", of: path) == bands)
        }
    }

    @Test("alpha: auto and original give PNG with 4 bands, webp keeps alpha, jpeg drops it")
    func alphaPNG() throws {
        let directory = try TemporaryDirectory()
        let source = try Self.bytes("\(Self.afl)/png/not_kitty_alpha.png")
        let variants = [
            VariantRequest(name: "auto", width: 16, format: .auto),
            VariantRequest(name: "original", format: .original),
            VariantRequest(name: "webp", width: 20, height: 10, fit: .fill, format: .webp),
            VariantRequest(name: "jpeg", width: 64, height: 64, fit: .cover, format: .jpeg, enlarge: true),
        ]
        let (_, rendered) = try VariantRenderer.render(source, variants: variants, options: RenderOptions())
        let expected: [(ImageFormat, Int, Int, Int)] = [
            (.png, 16, 16, 4), (.png, 32, 32, 4), (.webp, 20, 10, 4), (.jpeg, 64, 64, 3),
        ]
        for (variant, (format, width, height, bands)) in zip(rendered, expected) {
            #expect(variant.format == format, "\(variant.name)")
            let path = try directory.write(variant.bytes, name: "\(variant.name).\(format.fileExtension)")
            #expect(try ExternalTools.vipsField("width", of: path) == width, "\(variant.name)")
            #expect(try ExternalTools.vipsField("height", of: path) == height, "\(variant.name)")
            #expect(try ExternalTools.vipsField("bands", of: path) == bands, "\(variant.name)")
        }
    }

    @Test("an animated GIF gives animated WebP for original/auto/webp and frame 1 for jpeg/png")
    func animatedGIF() throws {
        let directory = try TemporaryDirectory()
        let source = try Self.animatedGIF(in: directory)
        let variants = [
            VariantRequest(name: "original", format: .original),
            VariantRequest(name: "auto", width: 16, format: .auto),
            VariantRequest(name: "webp", width: 20, height: 20, fit: .cover, format: .webp),
            VariantRequest(name: "jpeg", width: 16, format: .jpeg),
            VariantRequest(name: "png", width: 16, format: .png),
        ]
        let (info, rendered) = try VariantRenderer.render(source, variants: variants, options: RenderOptions())
        #expect(info.format == .gif)
        #expect(info.frameCount == 3)
        let expectedFrames = [3, 3, 3, 1, 1]
        let expectedFormats: [ImageFormat] = [.webp, .webp, .webp, .jpeg, .png]
        for (index, variant) in rendered.enumerated() {
            #expect(variant.format == expectedFormats[index], "\(variant.name)")
            #expect(variant.frameCount == expectedFrames[index], "\(variant.name)")
            let path = try directory.write(variant.bytes, name: "\(variant.name).\(variant.format.fileExtension)")
            let pages = variant.frameCount > 1 ? try ExternalTools.vipsField("n-pages", of: path) : 1
            #expect(pages == expectedFrames[index], "\(variant.name)")
        }
        let original = try directory.write(rendered[0].bytes, name: "check.webp")
        #expect(try ExternalTools.run("webpinfo", [original]).contains("Format: Lossless"))
    }

    @Test("first-frame-only turns animated sources into stills")
    func firstFrameOnly() throws {
        let directory = try TemporaryDirectory()
        let source = try Self.animatedGIF(in: directory)
        let variants = [
            VariantRequest(name: "auto", format: .auto),
            VariantRequest(name: "webp", width: 16, format: .webp),
        ]
        let (_, rendered) = try VariantRenderer.render(
            source, variants: variants, options: RenderOptions(firstFrameOnly: true))
        #expect(rendered.map(\.frameCount) == [1, 1])
        #expect(rendered[0].format == .jpeg)
        let path = try directory.write(rendered[1].bytes, name: "still.webp")
        #expect(try !ExternalTools.run("webpinfo", [path]).contains("ANMF"))
    }

    @Test("bad input fails with the probe's error; max_pixels is enforced")
    func errors() {
        #expect(throws: CodecError.notAnImage) {
            try VariantRenderer.render(Array("<html></html>".utf8), variants: [], options: RenderOptions())
        }
        #expect {
            try VariantRenderer.render(
                try Self.bytes("\(Self.afl)/jpeg/not_kitty.jpg"), variants: [VariantRequest(name: "a")],
                options: RenderOptions(maxPixels: 100))
        } throws: { error in
            if case .tooManyPixels = error as? CodecError { return true }
            return false
        }
    }

    @Test("the memory estimate follows shrink-on-load and the variants")
    func estimate() {
        let info = ImageInfo(format: .jpeg, storedSize: .init(width: 5640, height: 3172), frameCount: 1, hasAlpha: false)
        let small = VariantRenderer.estimatedDecodeBytes(
            info: info, variants: [VariantRequest(name: "t", width: 320, format: .webp)], options: RenderOptions())
        let full = VariantRenderer.estimatedDecodeBytes(
            info: info, variants: [VariantRequest(name: "o", format: .original)], options: RenderOptions())
        #expect(full >= 5640 * 3172 * 4)
        #expect(small < full / 16)
        let png = ImageInfo(format: .png, storedSize: .init(width: 5640, height: 3172), frameCount: 1, hasAlpha: true)
        #expect(
            VariantRenderer.estimatedDecodeBytes(
                info: png, variants: [VariantRequest(name: "t", width: 320)], options: RenderOptions()) >= 5640 * 3172 * 4)
        let gif = ImageInfo(format: .gif, storedSize: .init(width: 100, height: 100), frameCount: 10, hasAlpha: false)
        let animated = VariantRenderer.estimatedDecodeBytes(
            info: gif, variants: [VariantRequest(name: "a", format: .auto)], options: RenderOptions())
        let still = VariantRenderer.estimatedDecodeBytes(
            info: gif, variants: [VariantRequest(name: "a", format: .auto)], options: RenderOptions(firstFrameOnly: true))
        #expect(animated >= 10 * 100 * 100 * 4)
        #expect(still < animated / 4)
    }

    @Test("scale_down_large_images caps full-size variants at 16.7 MP")
    func scaleDown() throws {
        // 5640×3172 = 17.9 MP; the JPEG decodes at 1/2 = 2820×1586, which becomes the source.
        let source = try Self.bytes("/usr/share/backgrounds/mate/abstract/Elephants_5640x3172.jpg")
        let (_, rendered) = try VariantRenderer.render(
            source, variants: [VariantRequest(name: "original", format: .original, quality: 50)],
            options: RenderOptions(scaleDownLargeImages: true))
        #expect(rendered[0].size == PixelSize(width: 2820, height: 1586))
    }
}
