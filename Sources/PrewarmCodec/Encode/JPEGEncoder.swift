import CJPEG
import Glibc

/// JPEG output through libjpeg-turbo: baseline (not progressive), 4:2:0 chroma subsampling,
/// optimised Huffman tables (a few % smaller for a little CPU), alpha flattened onto white.
public enum JPEGEncoder {
    /// Encodes `buffer` at `quality` (1...100, clamped).
    public static func encode(_ buffer: PixelBuffer, quality: Int) throws(CodecError) -> [UInt8] {
        let pixels = buffer.hasAlpha ? flattenedOntoWhite(buffer.pixels) : buffer.pixels
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        var message = [CChar](repeating: 0, count: 256)
        let messageCount = message.count
        let ok = pixels.withUnsafeBufferPointer { input in
            message.withUnsafeMutableBufferPointer { text in
                prewarm_enc_jpeg_rgbx(
                    input.baseAddress, Int32(buffer.width), Int32(buffer.height),
                    Int32(min(max(quality, 1), 100)), &output, &outputSize, text.baseAddress, messageCount)
            }
        }
        defer { free(output) }
        guard ok == 1, let output else {
            throw .encode("JPEG: " + message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(outputSize)))
    }

    /// JPEG has no alpha: composite onto white (what a browser shows on a white page) so
    /// transparent areas do not turn into their hidden, often black, colour.
    static func flattenedOntoWhite(_ rgba: [UInt8]) -> [UInt8] {
        var result = rgba
        result.withUnsafeMutableBufferPointer { bytes in
            var index = 0
            while index < bytes.count {
                let alpha = UInt32(bytes[index + 3])
                if alpha != 255 {
                    let white = 255 * (255 - alpha)
                    for channel in 0..<3 {
                        let colour = UInt32(bytes[index + channel])
                        bytes[index + channel] = UInt8((colour * alpha + white + 127) / 255)
                    }
                    bytes[index + 3] = 255
                }
                index += 4
            }
        }
        return result
    }
}
