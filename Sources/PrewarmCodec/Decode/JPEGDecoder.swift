import CJPEG
import PrewarmCore

/// Decodes JPEG with libjpeg-turbo: baseline, progressive, grey, CMYK/YCCK; DCT shrink-on-load;
/// EXIF orientation applied. Errors come back from the C shim as a message, never as a longjmp.
enum JPEGDecoder {
    static func decode(
        _ bytes: [UInt8], info: ImageInfo, minimumSize: PixelSize?, scaleDownTo: Int64?
    ) throws(CodecError) -> DecodedImage {
        let minimumStored = minimumSize.map { ShrinkOnLoad.stored($0, orientation: info.orientation) }
        let denominator = ShrinkOnLoad.denominator(
            stored: info.storedSize, minimumSize: minimumStored, scaleDownTo: scaleDownTo)
        let size = ShrinkOnLoad.scaled(info.storedSize, by: denominator)
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
        var message = [CChar](repeating: 0, count: Int(JMSG_LENGTH_MAX))
        let result = bytes.withUnsafeBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { output in
                prewarm_jpeg_decode_rgba(
                    input.baseAddress, UInt(input.count), UInt32(denominator), UInt32(size.width),
                    UInt32(size.height), output.baseAddress, &message)
            }
        }
        guard result == 0 else {
            throw .decode(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        let stored = PixelBuffer(size: size, pixels: pixels, hasAlpha: false)
        let upright = Orientation.apply(info.orientation, to: stored)
        return DecodedImage(frames: [Frame(buffer: upright)], loopCount: 0, sourceSize: info.uprightSize)
    }
}
