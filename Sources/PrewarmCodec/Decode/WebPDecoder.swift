import CWebP
import PrewarmCore

/// Decodes WebP with libwebp: stills (lossy, lossless, alpha) with scaling during decode;
/// animations through WebPAnimDecoder, which composites every frame onto the canvas.
enum WebPDecoder {
    static func decode(
        _ bytes: [UInt8], info: ImageInfo, minimumSize: PixelSize?, allFrames: Bool, scaleDownTo: Int64?
    ) throws(CodecError) -> DecodedImage {
        if info.frameCount > 1 {
            return try decodeAnimation(bytes, info: info, allFrames: allFrames)
        }
        let denominator = ShrinkOnLoad.denominator(
            stored: info.storedSize, minimumSize: minimumSize, scaleDownTo: scaleDownTo)
        let size = ShrinkOnLoad.scaled(info.storedSize, by: denominator)
        let buffer = try decodeStill(bytes, size: size, scaled: denominator > 1, hasAlpha: info.hasAlpha)
        return DecodedImage(frames: [Frame(buffer: buffer)], loopCount: 0, sourceSize: info.storedSize)
    }

    private static func decodeStill(_ bytes: [UInt8], size: PixelSize, scaled: Bool, hasAlpha: Bool) throws(CodecError)
        -> PixelBuffer
    {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw .decode("libwebp version mismatch") }
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
        let status = bytes.withUnsafeBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { output in
                if scaled {
                    config.options.use_scaling = 1
                    config.options.scaled_width = Int32(size.width)
                    config.options.scaled_height = Int32(size.height)
                }
                // Decode straight into our buffer: MODE_RGBA is not premultiplied.
                config.output.colorspace = MODE_RGBA
                config.output.is_external_memory = 1
                config.output.u.RGBA.rgba = output.baseAddress
                config.output.u.RGBA.stride = Int32(size.width * 4)
                config.output.u.RGBA.size = output.count
                let status = WebPDecode(input.baseAddress, input.count, &config)
                WebPFreeDecBuffer(&config.output)
                return status
            }
        }
        guard status == VP8_STATUS_OK else { throw .decode("WebP: \(WebPStatus.describe(status))") }
        return PixelBuffer(size: size, pixels: pixels, hasAlpha: hasAlpha)
    }

    private static func decodeAnimation(_ bytes: [UInt8], info: ImageInfo, allFrames: Bool) throws(CodecError)
        -> DecodedImage
    {
        try bytes.withUnsafeBufferPointer { (input) throws(CodecError) -> DecodedImage in
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw .decode("libwebp version mismatch") }
            options.color_mode = MODE_RGBA
            options.use_threads = 0
            var data = WebPData(bytes: input.baseAddress, size: input.count)
            guard let decoder = WebPAnimDecoderNew(&data, &options) else {
                throw .decode("WebP animation is invalid or truncated")
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var animation = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &animation) != 0 else {
                throw .decode("WebP animation info unreadable")
            }
            let size = PixelSize(width: Int(animation.canvas_width), height: Int(animation.canvas_height))
            guard size == info.storedSize else { throw .decode("WebP canvas size changed between probe and decode") }
            var frames: [Frame] = []
            var previousTimestamp: Int32 = 0
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var canvas: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
                    throw .decode("WebP animation frame \(frames.count + 1) cannot be decoded")
                }
                let pixels = Array(UnsafeBufferPointer(start: canvas, count: size.width * size.height * 4))
                let buffer = PixelBuffer(size: size, pixels: pixels, hasAlpha: info.hasAlpha)
                // Timestamps are each frame's end time; the difference is its duration.
                frames.append(Frame(buffer: buffer, durationMilliseconds: Int(timestamp - previousTimestamp)))
                previousTimestamp = timestamp
                if !allFrames { break }
            }
            guard !frames.isEmpty else { throw .decode("WebP animation has no frames") }
            return DecodedImage(frames: frames, loopCount: Int(animation.loop_count), sourceSize: size)
        }
    }
}
