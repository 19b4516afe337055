import PrewarmCore

/// What one render will do, decided from the probe alone: the size every variant comes out at,
/// the format it is written in, and how much the single decode needs.
struct RenderPlan {
    /// How a variant is encoded.
    enum Encoding: Hashable {
        case jpeg
        case png
        case webp(animated: Bool, lossless: Bool)

        var imageFormat: ImageFormat {
            switch self {
            case .jpeg: return .jpeg
            case .png: return .png
            case .webp: return .webp
            }
        }

        var isAnimated: Bool {
            if case .webp(animated: true, _) = self { return true }
            return false
        }
    }

    let info: ImageInfo
    let variants: [VariantRequest]
    let options: RenderOptions
    /// The size variants are computed against: the upright size, capped by scale-down.
    let effectiveSource: PixelSize
    let geometries: [VariantGeometry]
    /// The source has several frames and the caller wants them.
    let animatedSource: Bool

    init(info: ImageInfo, variants: [VariantRequest], options: RenderOptions, effectiveSource: PixelSize? = nil) {
        self.info = info
        self.variants = variants
        self.options = options
        let upright = info.uprightSize
        let source =
            effectiveSource
            ?? (options.scaleDownLargeImages ? upright.cappedTo(pixels: RenderOptions.scaleDownPixelLimit) : upright)
        self.effectiveSource = source
        geometries = variants.map {
            VariantGeometry(source: source, width: $0.width, height: $0.height, fit: $0.fit, enlarge: $0.enlarge)
        }
        animatedSource = info.frameCount > 1 && !options.firstFrameOnly
    }

    /// The same plan recomputed for the size the decoder actually delivered. Only scale-down can
    /// make that differ from the plan's source in shape: a JPEG decoded at 1/2 to fit 16.7 MP is
    /// the new "source", so full-size variants are not upscaled back to the cap.
    func adjusted(toDecoded decoded: PixelSize) -> RenderPlan {
        guard options.scaleDownLargeImages, info.uprightSize.pixelCount > RenderOptions.scaleDownPixelLimit,
            decoded.pixelCount < effectiveSource.pixelCount
        else { return self }
        return RenderPlan(info: info, variants: variants, options: options, effectiveSource: decoded)
    }

    /// The decoder's `minimumSize`: the largest size any variant needs, upright. Equal to the
    /// effective source (no shrink-on-load) when a variant keeps the full size.
    var minimumSize: PixelSize {
        var width = 1
        var height = 1
        for geometry in geometries {
            let needed = geometry.requiredSourceSize
            width = max(width, needed.width)
            height = max(height, needed.height)
        }
        return PixelSize(width: width, height: height)
    }

    var scaleDownTo: Int64? { options.scaleDownLargeImages ? RenderOptions.scaleDownPixelLimit : nil }

    /// Whether any variant is an animation, so the decoder must deliver every frame.
    var needsAllFrames: Bool {
        animatedSource && variants.contains { encoding(for: $0, hasAlpha: info.hasAlpha).isAnimated }
    }

    /// The encoding of `variant` given whether the decoded pixels carry alpha.
    func encoding(for variant: VariantRequest, hasAlpha: Bool) -> Encoding {
        switch variant.format {
        case .jpeg: return .jpeg
        case .png: return .png
        case .webp: return .webp(animated: animatedSource, lossless: false)
        case .auto:
            if animatedSource { return .webp(animated: true, lossless: false) }
            return hasAlpha ? .png : .jpeg
        case .original:
            switch info.format {
            case .jpeg: return .jpeg
            case .png: return .png
            case .webp: return .webp(animated: animatedSource, lossless: false)
            case .gif: return .webp(animated: animatedSource, lossless: true)
            }
        }
    }

    /// Peak bytes of pixels this render holds: the decoded frames plus the largest variant's
    /// resized frames (variants are made one after another and their pixels dropped once encoded).
    var estimatedBytes: Int64 {
        let frames = Int64(needsAllFrames ? max(info.frameCount, 1) : 1)
        let decoded = estimatedDecodedSize
        // An animation decoder also keeps a compositing canvas.
        let canvas = frames > 1 ? decoded.pixelCount * 4 : 0
        var largestVariant: Int64 = 0
        for (variant, geometry) in zip(variants, geometries) {
            let variantFrames = encoding(for: variant, hasAlpha: info.hasAlpha).isAnimated ? frames : 1
            largestVariant = max(largestVariant, geometry.outputSize.pixelCount * 4 * variantFrames)
        }
        return decoded.pixelCount * 4 * frames + canvas + largestVariant
    }

    /// The size the decoder will produce, by the same shrink-on-load rule it uses.
    private var estimatedDecodedSize: PixelSize {
        let stored = info.storedSize
        // JPEG and still WebP shrink on load; PNG, GIF and animated WebP decode at full size.
        let shrinks = info.format == .jpeg || (info.format == .webp && info.frameCount <= 1)
        guard shrinks else { return stored }
        let denominator = ShrinkOnLoad.denominator(
            stored: stored, minimumSize: ShrinkOnLoad.stored(minimumSize, orientation: info.orientation),
            scaleDownTo: scaleDownTo)
        return ShrinkOnLoad.scaled(stored, by: denominator)
    }
}
