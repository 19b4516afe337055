import PrewarmCore

/// Width and height in pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var pixelCount: Int64 { Int64(width) * Int64(height) }
    public var description: String { "\(width)×\(height)" }
}

/// Decoded pixels: 8-bit RGBA, row-major, tightly packed (`width * 4` bytes a row), alpha NOT
/// premultiplied. Resizing premultiplies internally; encoders take this form.
public struct PixelBuffer: Sendable {
    public var size: PixelSize
    public var pixels: [UInt8]
    /// False when every alpha byte is 255 (the source had no alpha channel): encoders then drop it.
    public var hasAlpha: Bool

    public init(size: PixelSize, pixels: [UInt8], hasAlpha: Bool) {
        precondition(pixels.count == size.width * size.height * 4, "RGBA buffer size mismatch")
        self.size = size
        self.pixels = pixels
        self.hasAlpha = hasAlpha
    }

    public var width: Int { size.width }
    public var height: Int { size.height }
}

/// One frame of a (possibly animated) image, fully composited onto the canvas.
public struct Frame: Sendable {
    public var buffer: PixelBuffer
    /// How long this frame shows, in milliseconds (0 for stills).
    public var durationMilliseconds: Int

    public init(buffer: PixelBuffer, durationMilliseconds: Int = 0) {
        self.buffer = buffer
        self.durationMilliseconds = durationMilliseconds
    }
}

/// A decoded image: one frame for stills, every frame for animations (unless only the first
/// was asked for). Orientation is already applied: frames are upright.
public struct DecodedImage: Sendable {
    public var frames: [Frame]
    /// Animation loop count; 0 = forever.
    public var loopCount: Int
    /// The source's full, upright size before any shrink-on-load.
    public var sourceSize: PixelSize

    public init(frames: [Frame], loopCount: Int = 0, sourceSize: PixelSize) {
        self.frames = frames
        self.loopCount = loopCount
        self.sourceSize = sourceSize
    }

    public var isAnimated: Bool { frames.count > 1 }
}

/// What a header probe learns before any pixel is allocated.
public struct ImageInfo: Sendable, Hashable {
    public var format: ImageFormat
    /// Size as stored (before EXIF orientation).
    public var storedSize: PixelSize
    public var frameCount: Int
    public var hasAlpha: Bool
    /// EXIF orientation 1...8 (JPEG; 1 for everything else).
    public var orientation: Int

    public init(format: ImageFormat, storedSize: PixelSize, frameCount: Int, hasAlpha: Bool, orientation: Int = 1) {
        self.format = format
        self.storedSize = storedSize
        self.frameCount = frameCount
        self.hasAlpha = hasAlpha
        self.orientation = orientation
    }

    /// The upright size: width and height swap for orientations 5...8.
    public var uprightSize: PixelSize {
        orientation >= 5 ? PixelSize(width: storedSize.height, height: storedSize.width) : storedSize
    }

    /// Pixels over all frames: what `max_pixels` limits.
    public var totalPixels: Int64 { storedSize.pixelCount * Int64(max(frameCount, 1)) }
}

/// Why an image could not be decoded, checked or encoded. Maps 1:1 onto failure reasons.
public enum CodecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not an image at all (HTML, JSON, ...).
    case notAnImage
    /// An image format prewarm recognises but does not decode; carries its name ("AVIF").
    case unsupportedFormat(String)
    /// Over `max_pixels` (summed over frames).
    case tooManyPixels(PixelSize, frames: Int, limit: Int64)
    /// Corrupt, truncated or hostile data; carries the library's message.
    case decode(String)
    /// An encoder failed.
    case encode(String)

    public var failureReason: FailureReason {
        switch self {
        case .notAnImage: return .notAnImage
        case .unsupportedFormat: return .unsupportedFormat
        case .tooManyPixels: return .tooManyPixels
        case .decode, .encode: return .decode
        }
    }

    public var description: String {
        switch self {
        case .notAnImage: return "not an image"
        case .unsupportedFormat(let name): return "unsupported format: \(name)"
        case .tooManyPixels(let size, let frames, let limit):
            return "\(size) × \(frames) frame(s) is over max_pixels (\(limit))"
        case .decode(let message): return "cannot decode: \(message)"
        case .encode(let message): return "cannot encode: \(message)"
        }
    }
}
