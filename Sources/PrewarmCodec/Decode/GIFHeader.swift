import PrewarmCore

/// Reads a GIF's logical screen and walks its blocks without decompressing any pixels: frame
/// count, whether any frame is transparent or leaves part of the screen uncovered, loop count.
enum GIFHeader {
    struct Summary {
        var info: ImageInfo
        /// How many times the animation plays, 0 = forever (as WebP and libvips count). The
        /// NETSCAPE2.0 field counts repeats after the first play, so n > 0 plays n + 1 times;
        /// without the extension a GIF plays once.
        var loopCount: Int
    }

    static func probe(_ bytes: [UInt8]) throws(CodecError) -> ImageInfo {
        try summarize(bytes).info
    }

    static func summarize(_ bytes: [UInt8]) throws(CodecError) -> Summary {
        var reader = ByteReader(bytes: bytes)
        reader.bigEndian = false
        guard let width = reader.u16(6), let height = reader.u16(8), let flags = reader.u8(10) else {
            throw .decode("GIF header is truncated")
        }
        guard width > 0, height > 0 else { throw .decode("GIF has zero width or height") }
        var offset = 13 + colourTableSize(flags)
        var frames = 0
        var hasAlpha = false
        var loopCount = 1
        walk: while let introducer = reader.u8(offset) {
            switch introducer {
            case 0x2C:  // image descriptor
                guard let left = reader.u16(offset + 1), let top = reader.u16(offset + 3),
                    let frameWidth = reader.u16(offset + 5), let frameHeight = reader.u16(offset + 7),
                    let frameFlags = reader.u8(offset + 9)
                else { break walk }
                frames += 1
                if left > 0 || top > 0 || frameWidth < width || frameHeight < height { hasAlpha = true }
                // Skip the local colour table and the LZW minimum code size, then the data.
                offset = skipSubBlocks(reader, from: offset + 10 + colourTableSize(frameFlags) + 1)
            case 0x21:  // extension
                guard let label = reader.u8(offset + 1) else { break walk }
                let data = offset + 2
                if label == 0xF9, reader.u8(data) == 4, let packed = reader.u8(data + 1), packed & 1 == 1 {
                    hasAlpha = true
                }
                if label == 0xFF, reader.u8(data) == 11, reader.matches("NETSCAPE2.0", at: data + 1),
                    reader.u8(data + 12) == 3, reader.u8(data + 13) == 1, let loops = reader.u16(data + 14)
                {
                    loopCount = loops == 0 ? 0 : loops + 1
                }
                offset = skipSubBlocks(reader, from: data)
            default:  // 0x3B trailer, or garbage: stop counting
                break walk
            }
        }
        guard frames > 0 else { throw .decode("GIF has no image") }
        let info = ImageInfo(
            format: .gif, storedSize: PixelSize(width: width, height: height), frameCount: frames,
            hasAlpha: hasAlpha)
        return Summary(info: info, loopCount: loopCount)
    }

    /// A colour table's byte size from a packed flags byte (present bit 0x80, size in low 3 bits).
    private static func colourTableSize(_ flags: Int) -> Int {
        flags & 0x80 != 0 ? 3 << ((flags & 0x07) + 1) : 0
    }

    /// The offset after a chain of data sub-blocks (length-prefixed, ended by a zero length).
    private static func skipSubBlocks(_ reader: ByteReader, from start: Int) -> Int {
        var offset = start
        while let length = reader.u8(offset) {
            offset += 1 + length
            if length == 0 { return offset }
        }
        return reader.bytes.count
    }
}
