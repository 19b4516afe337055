import PrewarmCore

/// What the first bytes of a body say it is.
public enum SniffResult: Sendable, Hashable {
    /// A format prewarm decodes.
    case image(ImageFormat)
    /// An image format prewarm recognises but does not decode, by name ("AVIF", "SVG", ...).
    case unsupported(String)
    /// Not an image: HTML, JSON, text, an empty body, anything else.
    case notAnImage
}

/// Recognises image formats by their magic bytes, never by file extension or Content-Type.
public enum ImageSniffer {
    /// Sniffs `bytes` (the whole body or at least its first KiB).
    public static func sniff(_ bytes: UnsafeRawBufferPointer) -> SniffResult {
        if let format = decodableFormat(bytes) { return .image(format) }
        if let name = unsupportedFormatName(bytes) { return .unsupported(name) }
        return .notAnImage
    }

    /// Sniffs `bytes` (the whole body or at least its first KiB).
    public static func sniff(_ bytes: [UInt8]) -> SniffResult {
        bytes.withUnsafeBytes { sniff($0) }
    }

    private static func decodableFormat(_ b: UnsafeRawBufferPointer) -> ImageFormat? {
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) { return .gif }
        if b.starts(with: Array("RIFF".utf8)), b.count >= 12, b[8..<12].elementsEqual("WEBP".utf8) {
            return .webp
        }
        return nil
    }

    private static func unsupportedFormatName(_ b: UnsafeRawBufferPointer) -> String? {
        if let brand = isoMediaName(b) { return brand }
        if b.starts(with: [0xFF, 0x0A]) { return "JPEG XL" }
        if b.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) {
            return "JPEG XL"
        }
        if b.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) {
            return "JPEG 2000"
        }
        if b.starts(with: [0xFF, 0x4F, 0xFF, 0x51]) { return "JPEG 2000" }
        if b.starts(with: [0x49, 0x49, 0x2A, 0x00]) || b.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            return "TIFF"
        }
        if b.starts(with: Array("8BPS".utf8)) { return "PSD" }
        if isBMP(b) { return "BMP" }
        if isICO(b) { return "ICO" }
        if isSVG(b) { return "SVG" }
        return nil
    }

    /// ISO base media files (`....ftyp<brand>`): AVIF and HEIC/HEIF differ only by brand.
    private static func isoMediaName(_ b: UnsafeRawBufferPointer) -> String? {
        guard b.count >= 12, b[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let boxSize = Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
        let end = min(max(boxSize, 12), b.count)
        // The major brand, then the compatible brands after the 4-byte minor version.
        var brands = [String(decoding: b[8..<12], as: UTF8.self)]
        var offset = 16
        while offset + 4 <= end {
            brands.append(String(decoding: b[offset..<offset + 4], as: UTF8.self))
            offset += 4
        }
        if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return "AVIF" }
        let heif: Set = ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1"]
        if brands.contains(where: heif.contains) { return "HEIF" }
        if brands.contains("jxl ") { return "JPEG XL" }
        return nil
    }

    /// "BM" alone is too weak (text can start with it): also require a known DIB header size.
    private static func isBMP(_ b: UnsafeRawBufferPointer) -> Bool {
        guard b.count >= 18, b[0] == 0x42, b[1] == 0x4D else { return false }
        let dibSize = Int(b[14]) | Int(b[15]) << 8 | Int(b[16]) << 16 | Int(b[17]) << 24
        return [12, 16, 40, 52, 56, 64, 108, 124].contains(dibSize)
    }

    /// ICO and CUR: reserved 0, type 1 or 2, at least one entry.
    private static func isICO(_ b: UnsafeRawBufferPointer) -> Bool {
        guard b.count >= 6, b[0] == 0, b[1] == 0, b[2] == 1 || b[2] == 2, b[3] == 0 else { return false }
        return b[4] != 0 || b[5] != 0
    }

    /// SVG is text: an optional BOM and whitespace, then `<` (an XML declaration, comment,
    /// doctype or the element itself), and `<svg` somewhere in the first KiB.
    private static func isSVG(_ b: UnsafeRawBufferPointer) -> Bool {
        var head = Array(b.prefix(1024))
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head.removeFirst(3) }
        guard let first = head.firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
            head[first] == UInt8(ascii: "<")
        else { return false }
        let text = String(decoding: head[first...], as: UTF8.self).lowercased()
        guard
            text.hasPrefix("<?xml") || text.hasPrefix("<svg") || text.hasPrefix("<!--")
                || text.hasPrefix("<!doctype svg")
        else { return false }
        return text.contains("<svg")
    }
}
