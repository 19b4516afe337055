import CWebP

/// WebP output through libwebp: lossy (with an alpha plane when the buffer has alpha) or lossless,
/// still or animated (WebPAnimEncoder).
public enum WebPEncoder {
    /// Lossy: `quality` 1...100 as cwebp's `-q`. Lossless: `quality` is the effort (libwebp's meaning).
    public struct Settings: Sendable, Hashable {
        public var quality: Int
        public var lossless: Bool

        public init(quality: Int, lossless: Bool = false) {
            self.quality = quality
            self.lossless = lossless
        }
    }

    /// Encodes one still image.
    public static func encode(_ buffer: PixelBuffer, settings: Settings) throws(CodecError) -> [UInt8] {
        var config = try makeConfig(settings)
        var picture = try makePicture(buffer, settings: settings)
        defer { WebPPictureFree(&picture) }
        let writer = UnsafeMutablePointer<WebPMemoryWriter>.allocate(capacity: 1)
        WebPMemoryWriterInit(writer)
        defer {
            WebPMemoryWriterClear(writer)
            writer.deallocate()
        }
        picture.writer = WebPMemoryWrite
        picture.custom_ptr = UnsafeMutableRawPointer(writer)
        guard WebPEncode(&config, &picture) != 0 else {
            throw .encode("WebP: encoder error \(picture.error_code.rawValue)")
        }
        return Array(UnsafeBufferPointer(start: writer.pointee.mem, count: writer.pointee.size))
    }

    /// Encodes an animation. Every frame must have the first frame's size. `loopCount` 0 loops
    /// forever. Durations of 10 ms or less become 100 ms, as browsers play such GIF frames (and as
    /// gif2webp does), so a converted GIF keeps its speed.
    public static func encodeAnimated(_ frames: [Frame], loopCount: Int, settings: Settings)
        throws(CodecError) -> [UInt8]
    {
        guard let first = frames.first else { throw .encode("WebP: no frames to encode") }
        var config = try makeConfig(settings)
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else { throw .encode("WebP: libwebpmux version mismatch") }
        options.anim_params.loop_count = Int32(clamping: max(loopCount, 0))
        options.allow_mixed = 0
        guard let encoder = WebPAnimEncoderNew(Int32(first.buffer.width), Int32(first.buffer.height), &options)
        else { throw .encode("WebP: cannot create animation encoder") }
        defer { WebPAnimEncoderDelete(encoder) }

        var timestamp: Int32 = 0
        for frame in frames {
            guard frame.buffer.size == first.buffer.size else {
                throw .encode("WebP: frame size \(frame.buffer.size) differs from \(first.buffer.size)")
            }
            var picture = try makePicture(frame.buffer, settings: settings)
            let added = WebPAnimEncoderAdd(encoder, &picture, timestamp, &config)
            WebPPictureFree(&picture)
            guard added != 0 else { throw .encode("WebP: " + errorText(encoder)) }
            let duration = frame.durationMilliseconds <= 10 ? 100 : frame.durationMilliseconds
            timestamp += Int32(clamping: duration)
        }
        // A final NULL frame tells the encoder when the last frame ends.
        guard WebPAnimEncoderAdd(encoder, nil, timestamp, nil) != 0 else {
            throw .encode("WebP: " + errorText(encoder))
        }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0 else { throw .encode("WebP: " + errorText(encoder)) }
        defer { WebPDataClear(&data) }
        return Array(UnsafeBufferPointer(start: data.bytes, count: data.size))
    }

    private static func makeConfig(_ settings: Settings) throws(CodecError) -> WebPConfig {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw .encode("WebP: libwebp version mismatch") }
        config.quality = Float(min(max(settings.quality, 1), 100))
        config.lossless = settings.lossless ? 1 : 0
        // method 4 is cwebp's and libvips' default speed/size trade-off.
        config.method = 4
        guard WebPValidateConfig(&config) != 0 else { throw .encode("WebP: invalid configuration") }
        return config
    }

    private static func makePicture(_ buffer: PixelBuffer, settings: Settings) throws(CodecError) -> WebPPicture {
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw .encode("WebP: libwebp version mismatch") }
        picture.width = Int32(buffer.width)
        picture.height = Int32(buffer.height)
        // Lossless works on ARGB; lossy converts to YUV(A) on import.
        picture.use_argb = settings.lossless ? 1 : 0
        let stride = Int32(buffer.width * 4)
        let imported = buffer.pixels.withUnsafeBufferPointer { pixels in
            buffer.hasAlpha
                ? WebPPictureImportRGBA(&picture, pixels.baseAddress, stride)
                : WebPPictureImportRGBX(&picture, pixels.baseAddress, stride)
        }
        guard imported != 0 else {
            WebPPictureFree(&picture)
            throw .encode("WebP: cannot import \(buffer.size) pixels")
        }
        return picture
    }

    private static func errorText(_ encoder: OpaquePointer) -> String {
        guard let text = WebPAnimEncoderGetError(encoder) else { return "animation encoder error" }
        return String(cString: text)
    }
}
