import PrewarmCore

/// What `defaults` sets: every group starts from it.
struct SettingsLayer {
    var settings = GroupSettings()
    var priority: Priority = .normal
    /// `defaults.concurrency`: the job's bound (SDWebImagePrefetcher's default of 3).
    var jobConcurrency = 3
}

/// The keys `defaults` and groups share (SPEC "defaults").
extension ManifestDecoder {
    static let settingKeys = [
        "concurrency", "per_host", "rate", "order", "timeout", "retries", "backoff", "failed_ttl", "max_bytes",
        "max_pixels", "headers", "auth", "options", "store_original", "variants", "priority",
    ]

    mutating func decodeDefaults(_ node: YAMLNode) -> SettingsLayer {
        var layer = SettingsLayer()
        for entry in mapping(node, "defaults") ?? [] {
            if entry.key == "concurrency" {
                if let value = integer(entry.value, "concurrency", atLeast: 1) { layer.jobConcurrency = value }
            } else if !applySetting(entry.key, entry.value, to: &layer.settings, priority: &layer.priority) {
                reportUnknownKey(entry.key, at: entry.keyNode, in: "defaults", known: Self.settingKeys)
            }
        }
        return layer
    }

    /// Applies one settings key; false when `key` is not a settings key. An invalid value is
    /// reported and leaves the inherited value in place.
    mutating func applySetting(_ key: String, _ node: YAMLNode, to settings: inout GroupSettings, priority: inout Priority) -> Bool {
        switch key {
        case "concurrency": settings.concurrency = integer(node, key, atLeast: 1) ?? settings.concurrency
        case "per_host": settings.perHost = integer(node, key, atLeast: 1) ?? settings.perHost
        case "rate": settings.rate = number(node, key) ?? settings.rate
        case "order": settings.order = choice(node, "order", Order.allCases.map { ($0.rawValue, $0) }) ?? settings.order
        case "timeout":
            if let seconds = duration(node, key) {
                if seconds > 0 { settings.timeout = seconds } else { report(node, "timeout: must be more than 0s") }
            }
        case "retries": settings.retries = integer(node, key, atLeast: 0, atMost: 100) ?? settings.retries
        case "backoff": settings.backoff = duration(node, key) ?? settings.backoff
        case "failed_ttl": settings.failedTTL = duration(node, key) ?? settings.failedTTL
        case "max_bytes": settings.maxBytes = byteSize(node, key) ?? settings.maxBytes
        case "max_pixels": settings.maxPixels = pixelCount(node, key) ?? settings.maxPixels
        case "headers": settings.headers = headers(node) ?? settings.headers
        case "auth": settings.auth = auth(node)
        case "options": settings.options = options(node) ?? settings.options
        case "store_original": settings.storeOriginal = bool(node, key) ?? settings.storeOriginal
        case "variants": settings.variants = variants(node) ?? settings.variants
        case "priority":
            priority = choice(node, "priority", Priority.allCases.reversed().map { ($0.name, $0) }) ?? priority
        default: return false
        }
        return true
    }

    // MARK: headers, auth, options

    private mutating func headers(_ node: YAMLNode) -> [Header]? {
        guard let entries = mapping(node, "headers") else { return nil }
        var result: [Header] = []
        var seen: [String: Int] = [:]
        for entry in entries {
            let name = entry.key
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else {
                report(entry.keyNode, "header name '\(name)' is not valid; use letters, digits and - (e.g. X-Request-Id)")
                continue
            }
            if let firstLine = seen[name.lowercased()] {
                report(entry.keyNode, "header '\(name)' is set twice (first at line \(firstLine)); header names ignore case")
                continue
            }
            seen[name.lowercased()] = entry.keyNode.line
            guard let value = interpolated(entry.value, "header '\(name)'") else { continue }
            guard headerValueIsClean(value.text, entry.value, "header '\(name)'") else { continue }
            result.append(Header(name: name, value: value.text, isSecret: value.usedVariables))
        }
        return result
    }

    /// CR, LF or NUL in a header value would let it inject headers; refuse it. The value itself is
    /// not echoed: it may be a secret.
    private mutating func headerValueIsClean(_ value: String, _ node: YAMLNode, _ what: String) -> Bool {
        guard value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else { return true }
        report(node, "\(what): the value contains a line break (CR or LF) or NUL, which HTTP headers cannot hold; remove it (check the environment variable too)")
        return false
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        // RFC 9110 tchar.
        if (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) { return true }
        return "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }

    private mutating func auth(_ node: YAMLNode) -> BasicAuth? {
        if node.isNull { return nil }
        guard let entries = mapping(node, "auth") else { return nil }
        var username: String?
        var password: String?
        for entry in entries {
            switch entry.key {
            case "username":
                if let value = string(entry.value, "auth.username") {
                    if value.contains(":") {
                        report(entry.value, "auth.username: must not contain ':' (HTTP basic authentication splits on it)")
                    } else if headerValueIsClean(value, entry.value, "auth.username") {
                        username = value
                    }
                }
            case "password":
                if let value = string(entry.value, "auth.password"), headerValueIsClean(value, entry.value, "auth.password") {
                    password = value
                }
            default: reportUnknownKey(entry.key, at: entry.keyNode, in: "auth", known: ["username", "password"])
            }
        }
        let keys = Set(entries.map(\.key))
        if !keys.contains("username") { report(node, "auth: missing 'username'") }
        if !keys.contains("password") { report(node, "auth: missing 'password'; use \"${VARIABLE}\" to keep it out of the file") }
        guard let username, let password else { return nil }
        return BasicAuth(username: username, password: password)
    }

    private mutating func options(_ node: YAMLNode) -> Set<Option>? {
        guard let items = sequence(node, "options", expected: "a list of options") else { return nil }
        var result = Set<Option>()
        for item in items {
            if let option = choice(item, "option", Option.allCases.map { ($0.rawValue, $0) }) { result.insert(option) }
        }
        return result
    }

    // MARK: variants

    private static let variantKeys = ["name", "width", "height", "fit", "format", "quality", "enlarge"]

    private mutating func variants(_ node: YAMLNode) -> [VariantSpec]? {
        guard let items = sequence(node, "variants", expected: "a list of variants") else { return nil }
        var result: [VariantSpec] = []
        var seen: [String: Int] = [:]
        for item in items {
            guard let variant = variant(item) else { continue }
            if let firstLine = seen[variant.name] {
                report(item, "duplicate variant name '\(variant.name)' (first at line \(firstLine)); give each variant its own name")
                continue
            }
            seen[variant.name] = item.line
            result.append(variant)
        }
        return result
    }

    private mutating func variant(_ node: YAMLNode) -> VariantSpec? {
        guard let entries = mapping(node, "variant") else { return nil }
        var variant = VariantSpec(name: "")
        let issuesBefore = issues.count
        for entry in entries {
            let value = entry.value
            switch entry.key {
            case "name": variant.name = name(value, "variant name") ?? ""
            case "width": variant.width = integer(value, "width", atLeast: 1, atMost: 65_535)
            case "height": variant.height = integer(value, "height", atLeast: 1, atMost: 65_535)
            case "fit": variant.fit = choice(value, "fit", Fit.allCases.map { ($0.rawValue, $0) }) ?? variant.fit
            case "format":
                variant.format = choice(value, "format", VariantFormat.allCases.map { ($0.rawValue, $0) }) ?? variant.format
            case "quality": variant.quality = integer(value, "quality", atLeast: 1, atMost: 100) ?? variant.quality
            case "enlarge": variant.enlarge = bool(value, "enlarge") ?? variant.enlarge
            default: reportUnknownKey(entry.key, at: entry.keyNode, in: "variant", known: Self.variantKeys)
            }
        }
        let keys = Set(entries.map(\.key))
        if !keys.contains("name") { report(node, "variant: missing 'name'") }
        if !keys.contains("width") && !keys.contains("height") {
            report(node, "variant\(variant.name.isEmpty ? "" : " '\(variant.name)'"): needs a width, a height or both")
        }
        return issues.count == issuesBefore ? variant : nil
    }
}
