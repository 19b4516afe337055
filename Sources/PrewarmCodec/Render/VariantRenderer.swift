import PrewarmCore

/// Makes every variant of an image from one decode.
public enum VariantRenderer {
    /// Probe → decide limits → decode once at the smallest scale the largest variant allows
    /// (upright) → every variant (crop, resize) → encode.
    ///
    /// Variants come back in the order asked. Throws the probe's and decoder's errors
    /// (`notAnImage`, `unsupportedFormat`, `tooManyPixels`, `decode`) and `encode`.
    public static func render(_ bytes: [UInt8], variants: [VariantRequest], options: RenderOptions)
        throws(CodecError) -> (info: ImageInfo, variants: [RenderedVariant])
    {
        let info = try ImageDecoding.probe(bytes, maxPixels: options.maxPixels)
        return try render(bytes, info: info, variants: variants, options: options)
    }

    /// `render` after the probe, for callers (the decode pool) that probed already.
    static func render(_ bytes: [UInt8], info: ImageInfo, variants: [VariantRequest], options: RenderOptions)
        throws(CodecError) -> (info: ImageInfo, variants: [RenderedVariant])
    {
        let probePlan = RenderPlan(info: info, variants: variants, options: options)
        let decoded = try ImageDecoding.decode(
            bytes, info: info, minimumSize: probePlan.minimumSize, allFrames: probePlan.needsAllFrames,
            scaleDownTo: probePlan.scaleDownTo)
        guard let first = decoded.frames.first else { throw .decode("no frames decoded") }
        let plan = probePlan.adjusted(toDecoded: first.buffer.size)
        var rendered: [RenderedVariant] = []
        rendered.reserveCapacity(variants.count)
        for (variant, geometry) in zip(variants, plan.geometries) {
            let encoding = plan.encoding(for: variant, hasAlpha: first.buffer.hasAlpha)
            rendered.append(try renderVariant(variant, geometry: geometry, encoding: encoding, decoded: decoded))
        }
        return (info, rendered)
    }

    /// Estimated peak bytes of decoded pixels for this image and these variants (from the probe),
    /// for the memory budget.
    public static func estimatedDecodeBytes(info: ImageInfo, variants: [VariantRequest], options: RenderOptions)
        -> Int64
    {
        RenderPlan(info: info, variants: variants, options: options).estimatedBytes
    }

    private static func renderVariant(
        _ variant: VariantRequest, geometry: VariantGeometry, encoding: RenderPlan.Encoding, decoded: DecodedImage
    ) throws(CodecError) -> RenderedVariant {
        let quality = min(max(variant.quality, 1), 100)
        let resize = { (buffer: PixelBuffer) -> PixelBuffer in
            Resizer.resize(buffer, crop: geometry.crop(in: buffer.size), to: geometry.outputSize)
        }
        let bytes: [UInt8]
        var frameCount = 1
        switch encoding {
        case .jpeg:
            bytes = try JPEGEncoder.encode(resize(decoded.frames[0].buffer), quality: quality)
        case .png:
            bytes = try PNGEncoder.encode(resize(decoded.frames[0].buffer))
        case .webp(let animated, let lossless):
            let settings = WebPEncoder.Settings(quality: quality, lossless: lossless)
            if animated && decoded.frames.count > 1 {
                let frames = decoded.frames.map {
                    Frame(buffer: resize($0.buffer), durationMilliseconds: $0.durationMilliseconds)
                }
                frameCount = frames.count
                bytes = try WebPEncoder.encodeAnimated(frames, loopCount: decoded.loopCount, settings: settings)
            } else {
                bytes = try WebPEncoder.encode(resize(decoded.frames[0].buffer), settings: settings)
            }
        }
        return RenderedVariant(
            name: variant.name, format: encoding.imageFormat, size: geometry.outputSize, frameCount: frameCount,
            bytes: bytes)
    }
}
