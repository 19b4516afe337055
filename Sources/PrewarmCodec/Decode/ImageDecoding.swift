import PrewarmCore

/// The decode half of the codec: a header probe that allocates no pixels, then one decode per
/// image from which every variant is made.
///
/// Shrink-on-load: JPEG (DCT scaling 1/2, 1/4, 1/8) and still WebP (libwebp's scaler) decode
/// smaller when `minimumSize` or `scaleDownTo` allow. PNG, GIF and animated WebP always decode at
/// full size; the caller resizes them.
public enum ImageDecoding {
    /// Header-only probe. Throws .notAnImage / .unsupportedFormat / .decode; throws .tooManyPixels
    /// when info.totalPixels > maxPixels (pass Int64.max for no limit).
    public static func probe(_ bytes: [UInt8], maxPixels: Int64) throws(CodecError) -> ImageInfo {
        let info: ImageInfo
        switch ImageSniffer.sniff(bytes) {
        case .notAnImage: throw .notAnImage
        case .unsupported(let name): throw .unsupportedFormat(name)
        case .image(.jpeg): info = try JPEGHeader.probe(bytes)
        case .image(.png): info = try PNGHeader.probe(bytes)
        case .image(.gif): info = try GIFHeader.probe(bytes)
        case .image(.webp): info = try WebPHeader.probe(bytes)
        }
        guard info.totalPixels <= maxPixels else {
            throw .tooManyPixels(info.storedSize, frames: info.frameCount, limit: maxPixels)
        }
        return info
    }

    /// Decodes once, upright. `minimumSize` (upright coordinates) allows shrink-on-load; nil = full
    /// size. `allFrames` false = first frame only. `scaleDownTo` (pixels): when set and the image is
    /// larger, decode scaled down to fit within that pixel count where the format can
    /// (scale_down_large_images: 16.7 MP); otherwise the result is full size.
    /// `info` must come from `probe` of the same bytes: buffers are sized from it.
    public static func decode(
        _ bytes: [UInt8], info: ImageInfo, minimumSize: PixelSize?, allFrames: Bool, scaleDownTo: Int64?
    ) throws(CodecError) -> DecodedImage {
        switch info.format {
        case .jpeg:
            return try JPEGDecoder.decode(bytes, info: info, minimumSize: minimumSize, scaleDownTo: scaleDownTo)
        case .png:
            return try PNGDecoder.decode(bytes, info: info)
        case .gif:
            return try GIFDecoder.decode(bytes, info: info, allFrames: allFrames)
        case .webp:
            return try WebPDecoder.decode(
                bytes, info: info, minimumSize: minimumSize, allFrames: allFrames, scaleDownTo: scaleDownTo)
        }
    }
}
