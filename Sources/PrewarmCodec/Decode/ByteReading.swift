/// Big- and little-endian reads from a byte array that return nil instead of trapping when the
/// data is too short: headers come from the network and may be cut anywhere.
struct ByteReader {
    let bytes: [UInt8]
    var bigEndian = true

    func u8(_ offset: Int) -> Int? {
        offset >= 0 && offset < bytes.count ? Int(bytes[offset]) : nil
    }

    func u16(_ offset: Int) -> Int? {
        guard let a = u8(offset), let b = u8(offset + 1) else { return nil }
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(_ offset: Int) -> Int? {
        guard let a = u16(offset), let b = u16(offset + 2) else { return nil }
        return bigEndian ? a << 16 | b : b << 16 | a
    }

    func matches(_ text: String, at offset: Int) -> Bool {
        let expected = Array(text.utf8)
        guard offset >= 0, offset + expected.count <= bytes.count else { return false }
        return bytes[offset..<offset + expected.count].elementsEqual(expected)
    }
}
