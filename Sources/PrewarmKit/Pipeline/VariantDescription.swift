import PrewarmManifest

/// The transform description that goes into a variant's cache key, built from the parameters and
/// never the name (SPEC "Cache"): `w320h320-cover-webp-q80`. Changing any parameter changes the
/// key, so a changed variant is regenerated instead of served stale.
enum VariantDescription {
    static func of(_ variant: VariantSpec) -> String {
        var parts: [String] = []
        var size = ""
        if let width = variant.width { size += "w\(width)" }
        if let height = variant.height { size += "h\(height)" }
        parts.append(size)
        parts.append(variant.fit.rawValue)
        parts.append(variant.format.rawValue)
        // PNG is lossless: quality would only split the cache for no difference in output.
        if variant.format != .png { parts.append("q\(variant.quality)") }
        if variant.enlarge { parts.append("up") }
        return parts.joined(separator: "-")
    }
}
