import CPNG
import PrewarmCore

/// Decodes PNG with libpng (through a setjmp shim): every colour type and bit depth, palette +
/// tRNS, Adam7 interlace, 16-bit reduced to 8. APNG files give their default image (a still).
enum PNGDecoder {
    static func decode(_ bytes: [UInt8], info: ImageInfo) throws(CodecError) -> DecodedImage {
        let size = info.storedSize
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
        var message = [CChar](repeating: 0, count: 128)
        let result = bytes.withUnsafeBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { output in
                prewarm_png_decode_rgba(
                    input.baseAddress, input.count, UInt32(size.width), UInt32(size.height),
                    output.baseAddress, &message)
            }
        }
        guard result == 0 else {
            throw .decode(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        let buffer = PixelBuffer(size: size, pixels: pixels, hasAlpha: info.hasAlpha)
        return DecodedImage(frames: [Frame(buffer: buffer)], loopCount: 0, sourceSize: size)
    }
}
