import Foundation
import PrewarmCodec
import PrewarmCore
import Testing

@Suite("Sniffing by magic bytes")
struct ImageSnifferTests {
    private func sniffFile(_ path: String) throws -> SniffResult {
        ImageSniffer.sniff([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test("the afl++ seeds of decodable formats are recognised")
    func decodableSeeds() throws {
        let images = RealImages.aflImages
        #expect(try sniffFile("\(images)/jpeg/not_kitty.jpg") == .image(.jpeg))
        #expect(try sniffFile("\(images)/png/not_kitty.png") == .image(.png))
        #expect(try sniffFile("\(images)/gif/not_kitty.gif") == .image(.gif))
        #expect(try sniffFile("\(images)/webp/not_kitty.webp") == .image(.webp))
    }

    @Test("the afl++ seeds of other image formats are named, not decoded")
    func unsupportedSeeds() throws {
        let images = RealImages.aflImages
        #expect(try sniffFile("\(images)/bmp/not_kitty.bmp") == .unsupported("BMP"))
        #expect(try sniffFile("\(images)/tiff/not_kitty.tiff") == .unsupported("TIFF"))
        #expect(try sniffFile("\(images)/ico/not_kitty.ico") == .unsupported("ICO"))
        #expect(try sniffFile("\(images)/jp2/not_kitty.jp2") == .unsupported("JPEG 2000"))
    }

    @Test("a real SVG from gnome-backgrounds is named SVG")
    func realSVG() throws {
        #expect(try sniffFile("/usr/share/backgrounds/gnome/blobs-d.svg") == .unsupported("SVG"))
    }

    @Test(
        "magic bytes of formats no tool here writes",
        arguments: [
            ([0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("avifmif1miaf".utf8), "AVIF"),
            ([0, 0, 0, 0x18] + Array("ftypmif1".utf8) + [0, 0, 0, 0] + Array("mif1avif".utf8), "AVIF"),
            ([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8), "HEIF"),
            ([0, 0, 0, 0x14] + Array("ftypmif1".utf8) + [0, 0, 0, 0] + Array("mif1".utf8), "HEIF"),
            ([0xFF, 0x0A, 0xFA, 0x7F], "JPEG XL"),
            ([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A, 0, 0, 0, 0x14], "JPEG XL"),
            ([0xFF, 0x4F, 0xFF, 0x51, 0, 0x2F], "JPEG 2000"),
            (Array("MM\0*".utf8) + [0, 0, 0, 8], "TIFF"),
            (Array("8BPS".utf8) + [0, 1], "PSD"),
            (
                Array(
                    "\u{FEFF}\n  <?xml version=\"1.0\"?>\n<!-- x -->\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8),
                "SVG"
            ),
            (Array("<svg width=\"10\" height=\"10\"></svg>".utf8), "SVG"),
        ] as [([UInt8], String)])
    func unsupportedMagic(bytes: [UInt8], name: String) {
        #expect(ImageSniffer.sniff(bytes) == .unsupported(name))
    }

    @Test(
        "text that is not an image",
        arguments: [
            "<!DOCTYPE html><html><body><svg></svg></body></html>",
            "{\"error\": \"not found\"}",
            "Bad Gateway",
            "BMW is a car",
            "<?xml version=\"1.0\"?><rss></rss>",
            "",
            "RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ",
            "GIF8",
        ])
    func notAnImage(text: String) {
        #expect(ImageSniffer.sniff(Array(text.utf8)) == .notAnImage)
    }

    @Test("the raw-buffer and array forms agree")
    func bufferForm() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: RealImages.photo)))
        let viaBuffer = bytes.withUnsafeBytes { ImageSniffer.sniff($0) }
        #expect(viaBuffer == .image(.jpeg))
        #expect(viaBuffer == ImageSniffer.sniff(bytes))
    }
}
