import Foundation
import Testing

@testable import PrewarmCodec

@Suite("Resizer")
struct ResizerTests {
    @Test(
        "a solid colour stays exactly that colour, edges included",
        arguments: [
            (PixelSize(width: 97, height: 61), PixelSize(width: 13, height: 7)),  // box pre-shrink + Lanczos
            (PixelSize(width: 97, height: 61), PixelSize(width: 50, height: 40)),  // Lanczos only
            (PixelSize(width: 20, height: 10), PixelSize(width: 57, height: 33)),  // upscale
            (PixelSize(width: 400, height: 3), PixelSize(width: 9, height: 1)),
        ])
    func solidColour(from: PixelSize, to: PixelSize) {
        for colour: [UInt8] in [[200, 100, 50, 255], [10, 250, 128, 128]] {
            let output = Resizer.resize(SyntheticImages.solid(from, colour), to: to)
            #expect(output.size == to)
            var mismatches = 0
            for index in stride(from: 0, to: output.pixels.count, by: 4)
            where Array(output.pixels[index..<(index + 4)]) != colour {
                mismatches += 1
            }
            #expect(mismatches == 0, "colour \(colour): \(mismatches) pixels changed")
        }
    }

    @Test("transparent neighbours do not bleed their hidden colour")
    func transparentEdges() {
        // Left half opaque red, right half fully transparent but "green" underneath.
        let size = PixelSize(width: 64, height: 16)
        var pixels = [UInt8]()
        for _ in 0..<size.height {
            for x in 0..<size.width {
                pixels.append(contentsOf: x < 32 ? [255, 0, 0, 255] : [0, 255, 0, 0])
            }
        }
        let source = PixelBuffer(size: size, pixels: pixels, hasAlpha: true)
        for target in [PixelSize(width: 13, height: 5), PixelSize(width: 30, height: 8), PixelSize(width: 100, height: 20)] {
            let output = Resizer.resize(source, to: target)
            var partlyTransparent = 0
            var dirty = 0
            for index in stride(from: 0, to: output.pixels.count, by: 4) where output.pixels[index + 3] > 0 {
                if output.pixels[index + 3] < 255 { partlyTransparent += 1 }
                if output.pixels[index] < 254 || output.pixels[index + 1] != 0 || output.pixels[index + 2] != 0 {
                    dirty += 1
                }
            }
            #expect(partlyTransparent > 0, "the edge should be blended at \(target)")
            #expect(dirty == 0, "\(dirty) visible pixels are not pure red at \(target)")
        }
    }

    @Test("a crop resizes only the cropped part")
    func crop() {
        // Left third blue, middle third white, right third blue: the centre crop is all white.
        let size = PixelSize(width: 90, height: 30)
        var pixels = [UInt8]()
        for _ in 0..<size.height {
            for x in 0..<size.width {
                pixels.append(contentsOf: (30..<60).contains(x) ? [255, 255, 255, 255] : [0, 0, 255, 255])
            }
        }
        let source = PixelBuffer(size: size, pixels: pixels, hasAlpha: false)
        let output = Resizer.resize(source, crop: PixelRect(x: 30, y: 0, width: 30, height: 30), to: .init(width: 10, height: 10))
        #expect(output.pixels.allSatisfy { $0 == 255 })
    }

    @Test("the box pre-shrink starts above 3×, leaving the filter about 2×")
    func boxFactor() {
        #expect(Resizer.boxFactor(input: 300, output: 100) == 1)
        #expect(Resizer.boxFactor(input: 350, output: 100) == 2)
        #expect(Resizer.boxFactor(input: 5640, output: 320) == 8)
        #expect(Resizer.boxFactor(input: 100, output: 300) == 1)
    }

    @Test("downscaling a real photo matches vipsthumbnail (PSNR ≥ 30 dB)")
    func matchesVips() throws {
        let directory = try TemporaryDirectory()
        let original = "/usr/share/backgrounds/mate/nature/Dune.jpg"
        // Both sides start from the same decoded pixels, as PNG, so shrink-on-load plays no part.
        let sourcePNG = directory.url.appendingPathComponent("source.png").path
        try ExternalTools.run("vips", ["copy", original, sourcePNG])
        let width = try ExternalTools.vipsField("width", of: sourcePNG)
        let height = try ExternalTools.vipsField("height", of: sourcePNG)
        let rgb = try ExternalTools.rawPixels(of: sourcePNG, map: "RGB", in: directory.url)
        try #require(rgb.count == width * height * 3)
        var rgba = [UInt8]()
        rgba.reserveCapacity(width * height * 4)
        for index in stride(from: 0, to: rgb.count, by: 3) {
            rgba.append(contentsOf: [rgb[index], rgb[index + 1], rgb[index + 2], 255])
        }
        let source = PixelBuffer(size: .init(width: width, height: height), pixels: rgba, hasAlpha: false)
        let geometry = VariantGeometry(source: source.size, width: 320, height: nil, fit: .contain, enlarge: false)
        let ours = Resizer.resize(source, to: geometry.outputSize)
        let oursPath = try directory.write(try PNGEncoder.encode(ours), name: "ours.png")

        let theirsPath = directory.url.appendingPathComponent("vips.png").path
        try ExternalTools.run("vipsthumbnail", [sourcePNG, "--size", "320x", "-o", theirsPath])
        #expect(try ExternalTools.vipsField("width", of: theirsPath) == geometry.outputSize.width)
        #expect(try ExternalTools.vipsField("height", of: theirsPath) == geometry.outputSize.height)

        let a = try ExternalTools.rawPixels(of: oursPath, map: "RGB", in: directory.url)
        let b = try ExternalTools.rawPixels(of: theirsPath, map: "RGB", in: directory.url)
        try #require(a.count == b.count)
        let psnr = Self.psnr(a, b)
        #expect(psnr >= 30, "PSNR \(psnr) dB")
    }

    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var squared = 0.0
        for index in a.indices {
            let difference = Double(a[index]) - Double(b[index])
            squared += difference * difference
        }
        let mse = squared / Double(a.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
