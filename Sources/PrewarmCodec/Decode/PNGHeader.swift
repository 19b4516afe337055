import PrewarmCore

/// Reads a PNG's IHDR, and walks the chunks before the image data for tRNS (alpha) and acTL
/// (APNG frame count).
enum PNGHeader {
    static func probe(_ bytes: [UInt8]) throws(CodecError) -> ImageInfo {
        let reader = ByteReader(bytes: bytes)
        guard reader.matches("IHDR", at: 12), let width = reader.u32(16), let height = reader.u32(20),
            let colourType = reader.u8(25)
        else { throw .decode("PNG header is truncated") }
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw .decode("PNG has an invalid size \(width)×\(height)")
        }
        // Colour types 4 (grey + alpha) and 6 (RGBA) carry alpha; any type may add tRNS.
        var hasAlpha = colourType == 4 || colourType == 6
        var frameCount = 1
        var offset = 8
        while let length = reader.u32(offset), offset + 8 + length <= bytes.count {
            if reader.matches("IDAT", at: offset + 4) || reader.matches("IEND", at: offset + 4) { break }
            if reader.matches("tRNS", at: offset + 4) { hasAlpha = true }
            if reader.matches("acTL", at: offset + 4), let frames = reader.u32(offset + 8), frames > 0 {
                frameCount = frames
            }
            offset += 12 + length
        }
        return ImageInfo(
            format: .png, storedSize: PixelSize(width: width, height: height), frameCount: frameCount,
            hasAlpha: hasAlpha)
    }
}
