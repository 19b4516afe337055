import CPNG
import Glibc

/// PNG output through libpng: 8-bit RGBA when the buffer has alpha, else RGB.
public enum PNGEncoder {
    /// zlib level 6: libpng's and libvips' default. Level 1–3 would save roughly a third of the
    /// encode time for files ~10% larger; variants are written once and served many times.
    public static let defaultCompressionLevel = 6

    /// Encodes `buffer` at zlib `compressionLevel` (0...9).
    public static func encode(_ buffer: PixelBuffer, compressionLevel: Int = defaultCompressionLevel)
        throws(CodecError) -> [UInt8]
    {
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        var message = [CChar](repeating: 0, count: 256)
        let messageCount = message.count
        let ok = buffer.pixels.withUnsafeBufferPointer { input in
            message.withUnsafeMutableBufferPointer { text in
                prewarm_enc_png_rgba(
                    input.baseAddress, Int32(buffer.width), Int32(buffer.height), buffer.hasAlpha ? 1 : 0,
                    Int32(min(max(compressionLevel, 0), 9)), &output, &outputSize, text.baseAddress, messageCount)
            }
        }
        defer { free(output) }
        guard ok == 1, let output else {
            throw .encode("PNG: " + message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        return Array(UnsafeBufferPointer(start: output, count: outputSize))
    }
}
