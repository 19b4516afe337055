import CWebP
import PrewarmCore

/// Reads a WebP's canvas size, alpha and frame count with libwebp (WebPGetFeatures + WebPDemux),
/// without decoding pixels.
enum WebPHeader {
    static func probe(_ bytes: [UInt8]) throws(CodecError) -> ImageInfo {
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        guard status == VP8_STATUS_OK else { throw .decode("WebP header: \(WebPStatus.describe(status))") }
        var frames = 1
        if features.has_animation != 0 {
            frames = try bytes.withUnsafeBufferPointer { (buffer) throws(CodecError) -> Int in
                var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
                guard let demuxer = WebPDemux(&data) else { throw .decode("WebP container is invalid or truncated") }
                defer { WebPDemuxDelete(demuxer) }
                return Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
            }
        }
        guard features.width > 0, features.height > 0 else { throw .decode("WebP has zero width or height") }
        return ImageInfo(
            format: .webp, storedSize: PixelSize(width: Int(features.width), height: Int(features.height)),
            frameCount: max(frames, 1), hasAlpha: features.has_alpha != 0)
    }
}

/// libwebp's status codes in words.
enum WebPStatus {
    static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OK: return "ok"
        case VP8_STATUS_OUT_OF_MEMORY: return "out of memory"
        case VP8_STATUS_INVALID_PARAM: return "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: return "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature"
        case VP8_STATUS_SUSPENDED: return "suspended"
        case VP8_STATUS_USER_ABORT: return "user abort"
        case VP8_STATUS_NOT_ENOUGH_DATA: return "not enough data (truncated)"
        default: return "status \(status.rawValue)"
        }
    }
}
