import Foundation
import PrewarmCodec
import PrewarmCore
import Testing

@Suite("GIF decoding with giflib")
struct GIFDecodeTests {
    let fixtures: DecodeFixtures
    init() throws { fixtures = try DecodeFixtures() }

    /// ImageMagick's composited frames (`-coalesce`), split into RGBA buffers of `size`.
    private func coalescedFrames(_ path: String, size: PixelSize) throws -> [[UInt8]] {
        let all = [UInt8](try DecodeTools.run("convert", [path, "-coalesce", "-depth", "8", "rgba:-"]))
        let frameBytes = size.width * size.height * 4
        return stride(from: 0, to: all.count, by: frameBytes).map { Array(all[$0..<min($0 + frameBytes, all.count)]) }
    }

    @Test("the afl++ GIF seed matches ImageMagick exactly")
    func aflSeed() throws {
        let path = "\(RealImages.aflImages)/gif/not_kitty.gif"
        let image = try decodeFully(try fixtures.bytes(path))
        let buffer = image.frames[0].buffer
        #expect(buffer.size == (try DecodeTools.vipsSize(path)))
        #expect(visibleMeanAbsoluteError(buffer.pixels, try DecodeTools.referenceRGBA(path)) == 0)
    }

    @Test("interlaced GIF")
    func interlaced() throws {
        let path = try fixtures.convert(
            [try SmallSources.photo(), "-resize", "40x30!", "-interlace", "GIF"], output: "interlaced.gif")
        let buffer = try decodeFully(try fixtures.bytes(path)).frames[0].buffer
        #expect(buffer.size == PixelSize(width: 40, height: 30))
        #expect(visibleMeanAbsoluteError(buffer.pixels, try DecodeTools.referenceRGBA(path)) == 0)
    }

    @Test("every frame of an animation, composited, with delays and loop count")
    func animation() throws {
        let path = try AnimatedFixtures.gif(in: fixtures)
        let image = try decodeFully(try fixtures.bytes(path), allFrames: true)
        #expect(image.frames.count == 3)
        #expect(image.loopCount == 0)
        #expect(image.frames.map(\.durationMilliseconds) == [100, 100, 100])
        let reference = try coalescedFrames(path, size: AnimatedFixtures.frameSize)
        #expect(reference.count == 3)
        for (frame, expected) in zip(image.frames, reference) {
            #expect(frame.buffer.size == AnimatedFixtures.frameSize)
            #expect(visibleMeanAbsoluteError(frame.buffer.pixels, expected) == 0)
        }
        // The frames differ: this is not one frame three times.
        #expect(image.frames[0].buffer.pixels != image.frames[1].buffer.pixels)
    }

    @Test("first frame only, and a finite loop count")
    func firstFrameOnly() throws {
        let path = try AnimatedFixtures.gif(in: fixtures, loop: 3)
        let bytes = try fixtures.bytes(path)
        #expect(try ImageDecoding.probe(bytes, maxPixels: .max).frameCount == 3)
        let image = try decodeFully(bytes, allFrames: false)
        #expect(image.frames.count == 1)
        // ImageMagick writes 2 repeats for -loop 3; libvips and we count plays, so 3.
        #expect(image.loopCount == 3)
        #expect(
            String(decoding: try DecodeTools.run("vipsheader", ["-f", "loop", path]), as: UTF8.self).hasPrefix("3"))
        let reference = try coalescedFrames(path, size: AnimatedFixtures.frameSize)[0]
        #expect(visibleMeanAbsoluteError(image.frames[0].buffer.pixels, reference) == 0)
    }

    @Test("disposal methods none, background and previous with partial frames, as ImageMagick coalesces them")
    func disposal() throws {
        let base = try fixtures.convert([try SmallSources.photo(), "-resize", "48x36!"], output: "base.png")
        let patch1 = try fixtures.convert(
            [try SmallSources.photo(), "-crop", "50x50+150+100", "+repage", "-resize", "16x16!"], output: "p1.png")
        let patch2 = try fixtures.convert(
            [try SmallSources.photo(), "-crop", "50x50+25+225", "+repage", "-resize", "16x12!"], output: "p2.png")
        let patch3 = try fixtures.convert(
            [try SmallSources.photo(), "-crop", "25x25+350+25", "+repage", "-resize", "8x8!"], output: "p3.png")
        let path = try fixtures.convert(
            [
                "-delay", "20", "-loop", "0", "-dispose", "None", "-page", "48x36+0+0", base,
                "-dispose", "Background", "-page", "48x36+8+8", patch1,
                "-dispose", "Previous", "-page", "48x36+24+12", patch2,
                "-dispose", "None", "-page", "48x36+0+0", patch3,
            ], output: "disposal.gif")
        let bytes = try fixtures.bytes(path)
        let info = try ImageDecoding.probe(bytes, maxPixels: .max)
        #expect(info.frameCount == 4)
        #expect(info.hasAlpha)  // frames 2–4 leave the screen uncovered where disposed
        let image = try ImageDecoding.decode(bytes, info: info, minimumSize: nil, allFrames: true, scaleDownTo: nil)
        let reference = try coalescedFrames(path, size: info.storedSize)
        #expect(image.frames.count == 4)
        #expect(reference.count == 4)
        for (index, (frame, expected)) in zip(image.frames, reference).enumerated() {
            let error = visibleMeanAbsoluteError(frame.buffer.pixels, expected)
            #expect(error == 0, "frame \(index): mean absolute error \(error)")
        }
        // After the background disposal a hole shows through: frame 3 has transparent pixels.
        #expect(image.frames[2].buffer.hasAlpha)
        #expect(!image.frames[0].buffer.hasAlpha)
        #expect(image.frames.map(\.durationMilliseconds) == [200, 200, 200, 200])
    }

    @Test("truncated GIF is a decode error")
    func truncated() throws {
        let path = try fixtures.convert([try SmallSources.photo(), "-resize", "64x48!"], output: "t.gif")
        let bytes = DecodeTools.truncated(try fixtures.bytes(path))
        #expect(failsAsDecodeError(bytes, allFrames: false))
        let animation = DecodeTools.truncated(try fixtures.bytes(try AnimatedFixtures.gif(in: fixtures)))
        #expect(failsAsDecodeError(animation, allFrames: true))
    }

    @Test("GIF with damaged image data is a decode error")
    func corrupt() throws {
        let path = try fixtures.convert([try SmallSources.photo(), "-resize", "64x48!"], output: "c.gif")
        let bytes = DecodeTools.corrupted(try fixtures.bytes(path))
        #expect(failsAsDecodeError(bytes))
    }
}
