import PrewarmCore

/// Reads a JPEG's size and EXIF orientation by walking its markers up to the frame header.
enum JPEGHeader {
    static func probe(_ bytes: [UInt8]) throws(CodecError) -> ImageInfo {
        let reader = ByteReader(bytes: bytes)
        var offset = 2  // after SOI
        var orientation = 1
        while true {
            // Markers may be padded with any number of 0xFF fill bytes.
            guard reader.u8(offset) == 0xFF else { throw .decode("JPEG marker expected at byte \(offset)") }
            while reader.u8(offset) == 0xFF { offset += 1 }
            guard let marker = reader.u8(offset) else { throw .decode("JPEG header is truncated") }
            offset += 1
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { continue }
            if marker == 0xD9 || marker == 0xDA { throw .decode("JPEG has no frame header") }
            guard let length = reader.u16(offset), length >= 2 else { throw .decode("JPEG header is truncated") }
            let segment = offset + 2
            if marker == 0xE1, reader.matches("Exif\0\0", at: segment) {
                orientation = exifOrientation(bytes, tiffStart: segment + 6, end: offset + length) ?? orientation
            }
            if isStartOfFrame(marker) {
                guard let height = reader.u16(segment + 1), let width = reader.u16(segment + 3) else {
                    throw .decode("JPEG frame header is truncated")
                }
                guard width > 0, height > 0 else { throw .decode("JPEG has zero width or height") }
                return ImageInfo(
                    format: .jpeg, storedSize: PixelSize(width: width, height: height), frameCount: 1,
                    hasAlpha: false, orientation: orientation)
            }
            offset += length
        }
    }

    /// SOF0...SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    private static func isStartOfFrame(_ marker: Int) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// The Orientation tag (0x0112) of IFD0, in either byte order; nil when absent or not 1...8.
    static func exifOrientation(_ bytes: [UInt8], tiffStart: Int, end: Int) -> Int? {
        var reader = ByteReader(bytes: Array(bytes[min(tiffStart, bytes.count)..<min(end, bytes.count)]))
        if reader.matches("II*\0", at: 0) {
            reader.bigEndian = false
        } else if !reader.matches("MM\0*", at: 0) {
            return nil
        }
        guard let ifd = reader.u32(4), let count = reader.u16(ifd) else { return nil }
        for index in 0..<count {
            let entry = ifd + 2 + index * 12
            guard let tag = reader.u16(entry) else { return nil }
            guard tag == 0x0112 else { continue }
            // Type SHORT, count 1: the value sits in the first two bytes of the value field.
            guard reader.u16(entry + 2) == 3, let value = reader.u16(entry + 8) else { return nil }
            return (1...8).contains(value) ? value : nil
        }
        return nil
    }
}
