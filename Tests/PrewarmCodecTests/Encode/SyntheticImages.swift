@testable import PrewarmCodec

/// Hand-made pixel buffers for tests that need exact, known content.
enum SyntheticImages {
    /// Every pixel the same colour.
    static func solid(_ size: PixelSize, _ rgba: [UInt8]) -> PixelBuffer {
        var pixels = [UInt8]()
        pixels.reserveCapacity(size.width * size.height * 4)
        for _ in 0..<(size.width * size.height) { pixels.append(contentsOf: rgba) }
        return PixelBuffer(size: size, pixels: pixels, hasAlpha: rgba[3] != 255)
    }

    /// A smooth colour gradient with some texture (so JPEG quality changes the size).
    static func gradient(_ size: PixelSize, alpha: Bool = false) -> PixelBuffer {
        var pixels = [UInt8]()
        pixels.reserveCapacity(size.width * size.height * 4)
        for y in 0..<size.height {
            for x in 0..<size.width {
                pixels.append(UInt8(x * 255 / max(size.width - 1, 1)))
                pixels.append(UInt8(y * 255 / max(size.height - 1, 1)))
                pixels.append(UInt8(((x * 7) ^ (y * 13)) & 0xFF))
                pixels.append(alpha ? UInt8((x + y) * 255 / max(size.width + size.height - 2, 1)) : 255)
            }
        }
        return PixelBuffer(size: size, pixels: pixels, hasAlpha: alpha)
    }
}
