import Foundation

/// Turns a URL into its cache key (SPEC "cache.key"): the fragment is always dropped; the query
/// is dropped whole (`drop_query`) or only the named parameters (`drop_query_params`, e.g. the
/// signature parts of signed URLs), keeping the rest in their order.
public struct CacheKeyFilter: Sendable, Hashable {
    public let dropQuery: Bool
    public let dropQueryParams: Set<String>

    /// Parameter names match exactly (case-sensitive, as written in the URL, not percent-decoded).
    public init(dropQuery: Bool = false, dropQueryParams: [String] = []) {
        self.dropQuery = dropQuery
        self.dropQueryParams = Set(dropQueryParams)
    }

    /// The cache key of `url`.
    public func key(for url: String) -> String {
        var rest = Substring(url)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        guard let question = rest.firstIndex(of: "?") else { return String(rest) }
        let base = rest[..<question]
        if dropQuery { return String(base) }
        if dropQueryParams.isEmpty { return String(rest) }
        let query = rest[rest.index(after: question)...]
        let kept = query.split(separator: "&", omittingEmptySubsequences: false).filter { pair in
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return !dropQueryParams.contains(String(name))
        }
        return kept.isEmpty ? String(base) : base + "?" + kept.joined(separator: "&")
    }
}

/// The cache key of a variant (SPEC "Cache"): `-` + the transform description inserted before the
/// path's extension, as SDWebImage's SDTransformedKeyForKey does:
/// `https://x/a.jpg?v=2` + `w320h320-cover-webp-q80` → `https://x/a-w320h320-cover-webp-q80.jpg?v=2`.
///
/// The extension is that of the last path segment only (dots in directory or host names do not
/// count); the query and fragment stay after. Without an extension the description is appended to
/// the path — unlike SDWebImage, which appends after the query — so the query remains intact.
public enum VariantKey {
    public static func key(base: String, description: String) -> String {
        let suffixStart = base.firstIndex { $0 == "?" || $0 == "#" } ?? base.endIndex
        let pathPart = base[..<suffixStart]
        let suffix = base[suffixStart...]
        // The path starts after "scheme://authority"; without "://" the whole part is a path.
        var pathStart = pathPart.startIndex
        if let scheme = pathPart.range(of: "://") {
            pathStart = pathPart[scheme.upperBound...].firstIndex(of: "/") ?? pathPart.endIndex
        }
        let path = pathPart[pathStart...]
        let segmentStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let segment = path[segmentStart...]
        // ".hidden" and "name." have no extension, as NSString.pathExtension sees them.
        if let dot = segment.lastIndex(of: "."), dot != segment.startIndex,
            segment.index(after: dot) != segment.endIndex
        {
            return pathPart[..<dot] + "-" + description + pathPart[dot...] + suffix
        }
        return pathPart + "-" + description + suffix
    }
}
