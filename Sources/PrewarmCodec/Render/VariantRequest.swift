import PrewarmCore

/// The file format a variant is written in.
public enum OutputFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg
    case png
    case webp
    /// The source's own format. A GIF source gives WebP (lossless, animated when the GIF is):
    /// prewarm writes no GIFs, and lossless keeps every GIF pixel exactly.
    case original
    /// Animated (and not `firstFrameOnly`) → animated WebP, alpha → PNG, else JPEG.
    case auto
}

/// One variant to make from a decoded image.
public struct VariantRequest: Sendable, Hashable {
    /// The manifest's name for the variant (reported back, not used for sizing).
    public var name: String
    /// The box; nil on one side keeps the aspect ratio, nil on both keeps the source size.
    public var width: Int?
    public var height: Int?
    public var fit: Fit
    public var format: OutputFormat
    /// 1...100, for JPEG and lossy WebP; PNG ignores it.
    public var quality: Int
    /// False: never upscale (see `VariantGeometry` for the exact rule per fit).
    public var enlarge: Bool

    public init(
        name: String, width: Int? = nil, height: Int? = nil, fit: Fit = .contain, format: OutputFormat = .auto,
        quality: Int = 80, enlarge: Bool = false
    ) {
        self.name = name
        self.width = width
        self.height = height
        self.fit = fit
        self.format = format
        self.quality = quality
        self.enlarge = enlarge
    }
}

/// One encoded variant, ready to store.
public struct RenderedVariant: Sendable {
    public var name: String
    /// The format actually written (never `.gif`).
    public var format: ImageFormat
    public var size: PixelSize
    /// Frames in the file: 1 for stills.
    public var frameCount: Int
    public var bytes: [UInt8]

    public init(name: String, format: ImageFormat, size: PixelSize, frameCount: Int = 1, bytes: [UInt8]) {
        self.name = name
        self.format = format
        self.size = size
        self.frameCount = frameCount
        self.bytes = bytes
    }
}

/// Limits and options that apply to every variant of one image.
public struct RenderOptions: Sendable, Hashable {
    /// SDWebImage's scale-down limit for `scale_down_large_images`: 4096 × 4096 = 16.7 MP.
    public static let scaleDownPixelLimit: Int64 = 4096 * 4096

    /// Images with more pixels (summed over frames) fail as `tooManyPixels`; `Int64.max` = no limit.
    public var maxPixels: Int64
    /// Animated sources give still variants made from frame 1 (`decode_first_frame_only`).
    public var firstFrameOnly: Bool
    /// Treat images above `scaleDownPixelLimit` as if they were that large: the decode shrinks
    /// them where the format can, and full-size variants come out at most that large.
    public var scaleDownLargeImages: Bool

    public init(maxPixels: Int64 = 100_000_000, firstFrameOnly: Bool = false, scaleDownLargeImages: Bool = false) {
        self.maxPixels = maxPixels
        self.firstFrameOnly = firstFrameOnly
        self.scaleDownLargeImages = scaleDownLargeImages
    }
}
