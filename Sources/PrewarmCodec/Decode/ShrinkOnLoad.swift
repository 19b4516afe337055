/// How much a decoder that can scale while decoding (JPEG's DCT scaling, libwebp's scaler) may
/// shrink: a power-of-two denominator 1, 2, 4 or 8.
///
/// As libvips' thumbnail does, the reduction stops while the output is still at least twice the
/// size the caller will resize to, so the final high-quality resize has real pixels to work with
/// (a 1/8 DCT decode averages 8×8 blocks and would look soft if used as-is).
enum ShrinkOnLoad {
    static let denominators = [1, 2, 4, 8]

    /// The output size of decoding `size` at 1/`denominator`: libjpeg rounds up.
    static func scaled(_ size: PixelSize, by denominator: Int) -> PixelSize {
        PixelSize(
            width: (size.width + denominator - 1) / denominator,
            height: (size.height + denominator - 1) / denominator)
    }

    /// The denominator to decode `stored` with.
    /// - Parameters:
    ///   - stored: the size as stored in the file.
    ///   - minimumSize: the smallest size (stored orientation) the caller needs; nil = full size.
    ///   - scaleDownTo: a pixel count the output must fit within if it can (scale_down_large_images).
    static func denominator(stored: PixelSize, minimumSize: PixelSize?, scaleDownTo: Int64?) -> Int {
        var allowed = 1
        if let minimum = minimumSize {
            for candidate in denominators {
                let output = scaled(stored, by: candidate)
                guard output.width >= 2 * minimum.width, output.height >= 2 * minimum.height else { break }
                allowed = candidate
            }
        }
        guard let limit = scaleDownTo, stored.pixelCount > limit else { return allowed }
        // The mildest reduction that fits the limit; 1/8 if none does (the caller resizes further).
        let required = denominators.first { scaled(stored, by: $0).pixelCount <= limit } ?? 8
        return max(allowed, required)
    }

    /// `upright` in stored orientation: EXIF orientations 5...8 swap width and height.
    static func stored(_ upright: PixelSize, orientation: Int) -> PixelSize {
        orientation >= 5 ? PixelSize(width: upright.height, height: upright.width) : upright
    }
}
