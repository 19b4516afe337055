/// The image formats prewarm decodes and stores. Anything else that is recognisably an image is an
/// `unsupported_format` failure that names the format.
public enum ImageFormat: String, CaseIterable, Sendable, Codable, Hashable {
    case jpeg
    case png
    case gif
    case webp

    /// The cache file extension (SPEC "Cache": `jpg png webp gif`).
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .png: return "png"
        case .gif: return "gif"
        case .webp: return "webp"
        }
    }

    /// The MIME type, for metadata and reports.
    public var mimeType: String { "image/\(rawValue)" }

    public init?(fileExtension: String) {
        guard let match = ImageFormat.allCases.first(where: { $0.fileExtension == fileExtension })
        else { return nil }
        self = match
    }
}
