import Foundation
import PrewarmCodec
import Testing

/// Animations built from crops of a real photo.
enum AnimatedFixtures {
    static let frameSize = PixelSize(width: 48, height: 36)

    /// Three 48×36 crops of the photo, as PNG files.
    static func framePNGs(in fixtures: DecodeFixtures) throws -> [String] {
        try [(0, 0), (100, 75), (200, 150)].enumerated().map { index, origin in
            try fixtures.convert(
                [try SmallSources.photo(), "-crop", "100x75+\(origin.0)+\(origin.1)", "+repage", "-resize", "48x36!"],
                output: "frame\(index).png")
        }
    }

    /// A three-frame GIF, 100 ms a frame, looping forever.
    static func gif(in fixtures: DecodeFixtures, loop: Int = 0) throws -> String {
        try fixtures.convert(
            ["-delay", "10", "-loop", "\(loop)"] + framePNGs(in: fixtures), output: "anim-\(loop).gif")
    }

    /// A three-frame lossless WebP, 100 ms a frame, looping forever.
    static func webp(in fixtures: DecodeFixtures) throws -> String {
        let output = fixtures.path("anim.webp")
        try DecodeTools.run(
            "img2webp", ["-loop", "0", "-lossless", "-d", "100"] + framePNGs(in: fixtures) + ["-o", output])
        return output
    }
}

/// Compares RGBA buffers where a pixel transparent in both counts as equal whatever its colour.
func visibleMeanAbsoluteError(_ a: [UInt8], _ b: [UInt8]) -> Double {
    var left = a
    var right = b
    for index in stride(from: 3, to: min(a.count, b.count), by: 4) where a[index] == 0 && b[index] == 0 {
        for channel in index - 3..<index {
            left[channel] = 0
            right[channel] = 0
        }
    }
    return DecodeTools.meanAbsoluteError(left, right)
}
