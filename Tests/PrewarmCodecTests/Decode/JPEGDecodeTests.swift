import Foundation
import PrewarmCodec
import PrewarmCore
import Testing

@Suite("JPEG decoding with libjpeg-turbo")
struct JPEGDecodeTests {
    let fixtures: DecodeFixtures
    init() throws { fixtures = try DecodeFixtures() }

    /// An 80×60 JPEG made from the real photo with extra ImageMagick options.
    private func small(_ name: String, _ options: [String] = []) throws -> String {
        try fixtures.convert(
            [try SmallSources.photo(), "-resize", "80x60!"] + options + ["-quality", "92"], output: name)
    }

    private func expectMatchesReference(_ path: String, tolerance: Double = 2.5) throws {
        let bytes = try fixtures.bytes(path)
        let image = try decodeFully(bytes)
        let buffer = try #require(image.frames.first).buffer
        #expect(image.frames.count == 1)
        #expect(buffer.size == (try DecodeTools.vipsSize(path)))
        #expect(!buffer.hasAlpha)
        let error = DecodeTools.meanAbsoluteError(buffer.pixels, try DecodeTools.referenceRGBA(path))
        #expect(error < tolerance, "mean absolute error \(error) against ImageMagick")
    }

    @Test("baseline JPEG matches ImageMagick within a few levels")
    func baseline() throws {
        try expectMatchesReference(try small("baseline.jpg"))
    }

    @Test("progressive JPEG")
    func progressive() throws {
        let path = try small("progressive.jpg", ["-interlace", "Plane"])
        let bytes = try fixtures.bytes(path)
        #expect(
            bytes.indices.dropLast().contains { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC2 },
            "fixture is not progressive")
        try expectMatchesReference(path)
    }

    @Test("greyscale JPEG comes out as equal R, G and B")
    func greyscale() throws {
        let path = try small("grey.jpg", ["-colorspace", "Gray"])
        try expectMatchesReference(path)
        let pixels = try decodeFully(try fixtures.bytes(path)).frames[0].buffer.pixels
        let isGrey: (Int) -> Bool = { pixels[$0] == pixels[$0 + 1] && pixels[$0] == pixels[$0 + 2] }
        #expect(stride(from: 0, to: pixels.count, by: 4).allSatisfy(isGrey))
    }

    @Test("CMYK JPEG (Adobe, inverted) converts to RGB like ImageMagick")
    func cmyk() throws {
        let path = try small("cmyk.jpg", ["-colorspace", "CMYK"])
        #expect(
            String(decoding: try DecodeTools.run("identify", ["-format", "%[colorspace]", path]), as: UTF8.self)
                == "CMYK")
        try expectMatchesReference(path, tolerance: 4)
    }

    /// `base` with an EXIF APP1 segment holding only an Orientation tag, in either byte order.
    static func withOrientation(_ base: [UInt8], _ orientation: UInt16, littleEndian: Bool) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] {
            littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
        }
        func u32(_ v: UInt32) -> [UInt8] { littleEndian ? bigEndian(v).reversed() : bigEndian(v) }
        let tiff =
            (littleEndian ? Array("II*\0".utf8) : Array("MM\0*".utf8)) + u32(8) + u16(1)
            + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0] + u32(0)
        let exif = Array("Exif\0\0".utf8) + tiff
        let length = UInt16(exif.count + 2)
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + exif + base.dropFirst(2)
    }

    @Test("EXIF orientations 1–8 come out upright, like ImageMagick's -auto-orient", arguments: 1...8)
    func orientation(_ orientation: Int) throws {
        let base = try fixtures.bytes(try small("base.jpg"))
        let bytes = Self.withOrientation(base, UInt16(orientation), littleEndian: orientation % 2 == 0)
        let path = try fixtures.write(bytes, as: "o\(orientation).jpg")
        let info = try ImageDecoding.probe(bytes, maxPixels: .max)
        #expect(info.orientation == orientation)
        let buffer = try decodeFully(bytes).frames[0].buffer
        let upright = orientation >= 5 ? PixelSize(width: 60, height: 80) : PixelSize(width: 80, height: 60)
        #expect(buffer.size == upright)
        let error = DecodeTools.meanAbsoluteError(buffer.pixels, try DecodeTools.referenceRGBA(path, ["-auto-orient"]))
        #expect(error < 2.5, "mean absolute error \(error) against convert -auto-orient")
    }

    @Test("an out-of-range orientation value is ignored", arguments: [0, 9, 300])
    func orientationOutOfRange(_ value: Int) throws {
        let base = try fixtures.bytes(try small("base.jpg"))
        let bytes = Self.withOrientation(base, UInt16(value), littleEndian: false)
        #expect(try ImageDecoding.probe(bytes, maxPixels: .max).orientation == 1)
        #expect(try decodeFully(bytes).frames[0].buffer.size == PixelSize(width: 80, height: 60))
    }

    @Test("5640×3172 with minimumSize 320×180 decodes at 1/8 to 705×397, like djpeg -scale 1/8")
    func shrinkOnLoadEighth() throws {
        let bytes = try fixtures.bytes(RealImages.hugePhoto)
        let info = try ImageDecoding.probe(bytes, maxPixels: .max)
        let image = try ImageDecoding.decode(
            bytes, info: info, minimumSize: PixelSize(width: 320, height: 180), allFrames: false, scaleDownTo: nil)
        let buffer = image.frames[0].buffer
        #expect(buffer.size == PixelSize(width: 705, height: 397))
        #expect(image.sourceSize == PixelSize(width: 5640, height: 3172))
        let reference = try PortableMap.rgba(
            try DecodeTools.run("djpeg", ["-scale", "1/8", "-dct", "int", RealImages.hugePhoto]))
        #expect(reference.size == buffer.size)
        let error = DecodeTools.meanAbsoluteError(buffer.pixels, reference.pixels)
        #expect(error < 1, "mean absolute error \(error) against djpeg")
    }

    @Test("the ≥2× rule: one step less shrink when 1/8 would fall under twice the minimum")
    func shrinkOnLoadRule() throws {
        let bytes = try fixtures.bytes(RealImages.hugePhoto)
        let info = try ImageDecoding.probe(bytes, maxPixels: .max)
        // 705 < 2 × 400, so 1/4: 1410×793.
        let quarter = try ImageDecoding.decode(
            bytes, info: info, minimumSize: PixelSize(width: 400, height: 100), allFrames: false, scaleDownTo: nil)
        #expect(quarter.frames[0].buffer.size == PixelSize(width: 1410, height: 793))
        // scale_down_large_images: 17.9 MP does not fit 16.7 MP, 1/2 (4.5 MP) does.
        let half = try ImageDecoding.decode(
            bytes, info: info, minimumSize: nil, allFrames: false, scaleDownTo: 16_777_216)
        #expect(half.frames[0].buffer.size == PixelSize(width: 2820, height: 1586))
    }

    @Test("orientation 6 with shrink-on-load: minimumSize is upright, output upright and swapped")
    func shrinkWithOrientation() throws {
        let original = try fixtures.bytes(RealImages.photo)  // 1600×1203
        let bytes = Self.withOrientation(original, 6, littleEndian: true)
        let path = try fixtures.write(bytes, as: "photo-o6.jpg")
        let info = try ImageDecoding.probe(bytes, maxPixels: .max)
        #expect(info.uprightSize == PixelSize(width: 1203, height: 1600))
        // Upright 150×200 is stored 200×150: 1/4 gives 400×301, still ≥ 2×; 1/8 would not be.
        let image = try ImageDecoding.decode(
            bytes, info: info, minimumSize: PixelSize(width: 150, height: 200), allFrames: false, scaleDownTo: nil)
        let buffer = image.frames[0].buffer
        #expect(buffer.size == PixelSize(width: 301, height: 400))
        #expect(image.sourceSize == PixelSize(width: 1203, height: 1600))
        let reference = try DecodeTools.run(
            "convert", ["-define", "jpeg:size=400x300", path, "-auto-orient", "-depth", "8", "rgba:-"])
        let error = DecodeTools.meanAbsoluteError(buffer.pixels, [UInt8](reference))
        #expect(error < 2.5, "mean absolute error \(error) against convert -auto-orient")
    }

    @Test("truncated JPEG is a decode error with libjpeg's message, not a grey image")
    func truncated() throws {
        let bytes = DecodeTools.truncated(try fixtures.bytes(try small("t.jpg")))
        let error = decodeError(bytes)
        #expect(error == .decode("Premature end of JPEG file"))
    }

    @Test("truncated progressive JPEG is a decode error")
    func truncatedProgressive() throws {
        let bytes = DecodeTools.truncated(try fixtures.bytes(try small("tp.jpg", ["-interlace", "Plane"])))
        #expect(failsAsDecodeError(bytes))
    }

    @Test("a progressive JPEG with hundreds of scans is refused (CPU bomb)")
    func tooManyScans() throws {
        let bytes = try fixtures.bytes(try small("scans.jpg", ["-interlace", "Plane"]))
        // Repeat the first scan (DC, with the Huffman table before it) 600 times before EOI: each
        // copy decodes cleanly and libjpeg would redo the whole coefficient buffer for it.
        let marker: (Int) -> Bool = {
            bytes[$0] == 0xFF && bytes[$0 + 1] != 0 && !(0xD0...0xD7).contains(bytes[$0 + 1])
        }
        let firstScan = try #require((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let table = try #require((0..<firstScan).last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC4 })
        let scanHeaderLength = Int(bytes[firstScan + 2]) << 8 | Int(bytes[firstScan + 3])
        let scanEnd = try #require((firstScan + 2 + scanHeaderLength..<bytes.count - 1).first(where: marker))
        let scan = Array(bytes[table..<scanEnd])
        let bomb =
            Array(bytes[..<(bytes.count - 2)]) + Array([[UInt8]](repeating: scan, count: 600).joined()) + [0xFF, 0xD9]
        let error = decodeError(bomb)
        #expect(error == .decode("progressive JPEG has more than 500 scans"))
    }

    @Test("JPEG with damaged entropy data is a decode error")
    func corrupt() throws {
        let bytes = DecodeTools.corrupted(try fixtures.bytes(try small("c.jpg")))
        #expect(failsAsDecodeError(bytes))
    }
}

/// Netpbm output (P6 from djpeg, P7 RGB_ALPHA from dwebp -pam) as RGBA.
enum PortableMap {
    struct Failure: Error {}

    static func rgba(_ data: Data) throws -> PixelBuffer {
        let bytes = [UInt8](data)
        if bytes.starts(with: Array("P7".utf8)) {
            let marker = Array("ENDHDR\n".utf8)
            guard
                let end = (0..<bytes.count - marker.count).first(where: {
                    bytes[$0..<$0 + marker.count].elementsEqual(marker)
                })
            else { throw Failure() }
            let header = String(decoding: bytes[..<end], as: UTF8.self).split(whereSeparator: \.isWhitespace)
            guard let w = header.firstIndex(of: "WIDTH").map({ Int(header[$0 + 1]) }) ?? nil,
                let h = header.firstIndex(of: "HEIGHT").map({ Int(header[$0 + 1]) }) ?? nil
            else { throw Failure() }
            return PixelBuffer(
                size: PixelSize(width: w, height: h), pixels: Array(bytes[(end + marker.count)...]), hasAlpha: true)
        }
        // P6: "P6 <w> <h> <max>" then one whitespace byte, then RGB.
        var fields: [Int] = []
        var index = 2
        while fields.count < 3 {
            while bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
            var value = 0
            while (0x30...0x39).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            fields.append(value)
        }
        let rgb = bytes[(index + 1)...]
        var pixels: [UInt8] = []
        pixels.reserveCapacity(fields[0] * fields[1] * 4)
        var iterator = rgb.makeIterator()
        while let r = iterator.next(), let g = iterator.next(), let b = iterator.next() { pixels += [r, g, b, 255] }
        return PixelBuffer(size: PixelSize(width: fields[0], height: fields[1]), pixels: pixels, hasAlpha: false)
    }
}
