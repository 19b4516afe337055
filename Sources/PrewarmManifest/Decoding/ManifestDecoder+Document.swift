import PrewarmCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The top level: `version`, `job`, `cache`, `network`, `defaults`, `groups`.
extension ManifestDecoder {
    static let topLevelKeys = ["version", "job", "cache", "network", "defaults", "groups"]

    /// Decodes the whole document. Returns the manifest (nil when there were issues) and the node
    /// `job` came from (for the duplicate-job check across manifests).
    mutating func decodeDocument(_ root: YAMLNode?) -> (manifest: Manifest?, jobNode: YAMLNode?) {
        let start = YAMLNode(content: .scalar("", plain: true), line: 1, column: 1)
        guard let root, !root.isNull else {
            report(start, "the manifest is empty; it needs at least 'version: 1' and 'groups'")
            return (nil, nil)
        }
        guard let entries = mapping(root, "the manifest") else { return (nil, nil) }
        let issuesBefore = issues.count

        var job = defaultJobName
        var jobNode: YAMLNode?
        var cache = CacheSettings()
        var network = NetworkSettings()
        var defaults = SettingsLayer()
        var groupsNode: YAMLNode?
        var sawVersion = false

        // `defaults` first, wherever it is written: groups build on it.
        if let defaultsEntry = entries.first(where: { $0.key == "defaults" }) {
            defaults = decodeDefaults(defaultsEntry.value)
        }
        for entry in entries {
            switch entry.key {
            case "version":
                sawVersion = true
                decodeVersion(entry.value)
            case "job":
                jobNode = entry.value
                if let name = jobName(entry.value) { job = name }
            case "cache": cache = decodeCache(entry.value)
            case "network": network = decodeNetwork(entry.value)
            case "defaults": break
            case "groups": groupsNode = entry.value
            default: reportUnknownKey(entry.key, at: entry.keyNode, in: "the manifest", known: Self.topLevelKeys)
            }
        }
        if !sawVersion { report(start, "missing 'version: 1'; add it as the first line of the manifest") }

        var groups: [Group] = []
        if let groupsNode {
            groups = decodeGroups(groupsNode, defaults: defaults)
        } else {
            report(start, "missing 'groups'; add a list of groups, each with urls, url_file or url_template")
        }

        guard issues.count == issuesBefore else { return (nil, jobNode) }
        let manifest = Manifest(
            file: file, job: job, cache: cache, network: network, concurrency: defaults.jobConcurrency,
            groups: groups)
        return (manifest, jobNode)
    }

    /// The file name without its extension: `jobs/catalog.yaml` → `catalog`.
    var defaultJobName: String {
        var name = file.split(separator: "/").last.map(String.init) ?? file
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
        return name
    }

    private mutating func decodeVersion(_ node: YAMLNode) {
        guard let text = interpolated(node, "version", expected: "1")?.text else { return }
        if text.trimmingSpaces != "1" {
            report(node, "unsupported manifest version '\(text)'; this prewarm reads 'version: 1'")
        }
    }

    private mutating func jobName(_ node: YAMLNode) -> String? {
        guard let name = name(node, "job") else { return nil }
        if name.contains("/") || name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            report(node, "job: '\(name)' must not contain '/' or control characters")
            return nil
        }
        return name
    }

    private static let cacheKeys = ["path", "max_age", "max_size", "key"]
    private static let cacheKeyKeys = ["drop_query", "drop_query_params"]

    private mutating func decodeCache(_ node: YAMLNode) -> CacheSettings {
        var settings = CacheSettings()
        for entry in mapping(node, "cache") ?? [] {
            switch entry.key {
            case "path": settings.path = string(entry.value, "cache.path").map { absolutePath(resolvePath($0)) }
            case "max_age": settings.maxAge = duration(entry.value, "cache.max_age")
            case "max_size": settings.maxSize = byteSize(entry.value, "cache.max_size") ?? 0
            case "key":
                for keyEntry in mapping(entry.value, "cache.key") ?? [] {
                    switch keyEntry.key {
                    case "drop_query":
                        settings.key.dropQuery = bool(keyEntry.value, "cache.key.drop_query") ?? false
                    case "drop_query_params":
                        settings.key.dropQueryParams = stringList(keyEntry.value, "cache.key.drop_query_params")
                    default:
                        reportUnknownKey(keyEntry.key, at: keyEntry.keyNode, in: "cache.key", known: Self.cacheKeyKeys)
                    }
                }
            default: reportUnknownKey(entry.key, at: entry.keyNode, in: "cache", known: Self.cacheKeys)
            }
        }
        return settings
    }

    private mutating func decodeNetwork(_ node: YAMLNode) -> NetworkSettings {
        var settings = NetworkSettings()
        for entry in mapping(node, "network") ?? [] {
            switch entry.key {
            case "deny":
                for item in sequence(entry.value, "network.deny") ?? [] {
                    if let addressClass = addressClass(item) { settings.deny.append(addressClass) }
                }
            default: reportUnknownKey(entry.key, at: entry.keyNode, in: "network", known: ["deny"])
            }
        }
        return settings
    }

    private mutating func addressClass(_ node: YAMLNode) -> AddressClass? {
        guard let text = string(node, "network.deny") else { return nil }
        switch text {
        case "loopback": return .loopback
        case "private": return .privateRange
        case "link_local": return .linkLocal
        default:
            if text.contains("/") {
                if CIDR.isValid(text) { return .cidr(text) }
                report(node, "network.deny: '\(text)' is not a valid CIDR block; write it like 100.64.0.0/10 or fd00::/8")
                return nil
            }
            let names = ["loopback", "private", "link_local"]
            report(node, "unknown address class '\(text)' in network.deny\(Suggestion.hint(for: text, in: names)); use loopback, private, link_local or a CIDR block like 100.64.0.0/10")
            return nil
        }
    }

    /// A list of strings (`drop_query_params`, `options`).
    mutating func stringList(_ node: YAMLNode, _ what: String) -> [String] {
        (sequence(node, what, expected: "a list of strings") ?? []).compactMap { string($0, what) }
    }

    /// `path` made absolute against the current directory.
    func absolutePath(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        guard let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        var directory = String(cString: cwd)
        if !directory.hasSuffix("/") { directory += "/" }
        return directory + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }
}

/// Checks `network.deny` CIDR blocks: an IPv4 or IPv6 address, `/`, and a prefix length.
enum CIDR {
    static func isValid(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let prefix = Int(parts[1]), parts[1].allSatisfy(\.isNumber) else { return false }
        var storage = [UInt8](repeating: 0, count: 16)
        let address = String(parts[0])
        if inet_pton(AF_INET, address, &storage) == 1 { return (0...32).contains(prefix) }
        if inet_pton(AF_INET6, address, &storage) == 1 { return (0...128).contains(prefix) }
        return false
    }
}
