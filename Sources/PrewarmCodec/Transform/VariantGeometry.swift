/// The size arithmetic of one variant, in one place: what size comes out, and which part of the
/// source it shows.
///
/// Rules (sizes are the upright source size `S` and the asked box `W`×`H`):
/// - Neither width nor height: the output is the source size (re-encode only).
/// - Width only / height only: scale `W/S.w` (or `H/S.h`) on both axes, whatever the fit.
/// - Both, `contain`: scale `min(W/S.w, H/S.h)`; the whole image fits inside the box.
/// - Both, `cover`: scale `max(W/S.w, H/S.h)`; the box is filled and the overflow is cropped
///   equally on both sides (centre crop).
/// - Both, `fill`: scale `W/S.w` horizontally and `H/S.h` vertically (aspect ratio not kept).
/// - `enlarge: false` caps every scale at 1 (per axis for `fill`). For `contain` and one-sided
///   requests the output then keeps the source size. For `cover` the output is the box clipped to
///   what the unscaled image can fill: `min(W, S.w)`×`min(H, S.h)`, still a centre crop. For
///   `fill` each axis is `min(W, S.w)` and `min(H, S.h)`.
/// - Sizes round to nearest as vipsthumbnail does (`x + 0.5` truncated), and are at least 1 px.
public struct VariantGeometry: Sendable, Hashable {
    /// The size of the variant.
    public var outputSize: PixelSize
    /// The part of the source the output shows, as fractions (0...1) of the source's width and
    /// height, so it maps onto a source decoded at any reduced size.
    public var regionX: Double
    public var regionY: Double
    public var regionWidth: Double
    public var regionHeight: Double
    /// The upright source size this geometry was computed for.
    public var sourceSize: PixelSize

    public init(source: PixelSize, width: Int?, height: Int?, fit: Fit, enlarge: Bool) {
        let sw = Double(max(source.width, 1))
        let sh = Double(max(source.height, 1))
        sourceSize = source
        regionX = 0
        regionY = 0
        regionWidth = 1
        regionHeight = 1
        let cap: (Double) -> Double = { enlarge ? $0 : min($0, 1) }

        switch (width, height) {
        case (nil, nil):
            outputSize = source
        case (let w?, nil):
            let scale = cap(Double(w) / sw)
            outputSize = PixelSize(width: Self.round(sw * scale), height: Self.round(sh * scale))
        case (nil, let h?):
            let scale = cap(Double(h) / sh)
            outputSize = PixelSize(width: Self.round(sw * scale), height: Self.round(sh * scale))
        case (let w?, let h?):
            switch fit {
            case .contain:
                let scale = cap(min(Double(w) / sw, Double(h) / sh))
                outputSize = PixelSize(width: Self.round(sw * scale), height: Self.round(sh * scale))
            case .fill:
                let sx = cap(Double(w) / sw)
                let sy = cap(Double(h) / sh)
                outputSize = PixelSize(width: Self.round(sw * sx), height: Self.round(sh * sy))
            case .cover:
                let scale = cap(max(Double(w) / sw, Double(h) / sh))
                let out = PixelSize(
                    width: min(max(w, 1), Self.round(sw * scale)),
                    height: min(max(h, 1), Self.round(sh * scale)))
                outputSize = out
                // The source region that scales onto the output, centred.
                regionWidth = min(1, Double(out.width) / scale / sw)
                regionHeight = min(1, Double(out.height) / scale / sh)
                regionX = (1 - regionWidth) / 2
                regionY = (1 - regionHeight) / 2
            }
        }
    }

    /// The integer crop of a decoded image of `size` that shows this geometry's region. The whole
    /// image unless the fit is `cover` and the aspect ratios differ.
    public func crop(in size: PixelSize) -> PixelRect {
        let x0 = Int((regionX * Double(size.width)).rounded())
        let y0 = Int((regionY * Double(size.height)).rounded())
        let x1 = Int(((regionX + regionWidth) * Double(size.width)).rounded())
        let y1 = Int(((regionY + regionHeight) * Double(size.height)).rounded())
        let x = min(max(x0, 0), size.width - 1)
        let y = min(max(y0, 0), size.height - 1)
        return PixelRect(
            x: x, y: y,
            width: max(1, min(x1, size.width) - x),
            height: max(1, min(y1, size.height) - y))
    }

    /// The smallest full-image size whose crop still has at least as many pixels as the output on
    /// each axis: decoding smaller than this would mean upscaling. Never above the source size.
    public var requiredSourceSize: PixelSize {
        let needW = Double(outputSize.width) / regionWidth
        let needH = Double(outputSize.height) / regionHeight
        // The small tolerance keeps float noise (320.0000001) from asking for one more pixel.
        return PixelSize(
            width: min(sourceSize.width, max(1, Int((needW - 1e-6).rounded(.up)))),
            height: min(sourceSize.height, max(1, Int((needH - 1e-6).rounded(.up)))))
    }

    /// Round to nearest (vipsthumbnail's `VIPS_ROUND_UINT`), at least 1 px.
    static func round(_ value: Double) -> Int {
        max(1, Int(value + 0.5))
    }
}

extension PixelSize {
    /// This size scaled down, keeping the aspect ratio, so it holds at most `limit` pixels; itself
    /// when already within the limit. Used for `scale_down_large_images`.
    public func cappedTo(pixels limit: Int64) -> PixelSize {
        guard limit > 0, pixelCount > limit else { return self }
        let factor = (Double(limit) / Double(pixelCount)).squareRoot()
        return PixelSize(
            width: max(1, Int(Double(width) * factor)), height: max(1, Int(Double(height) * factor)))
    }
}
