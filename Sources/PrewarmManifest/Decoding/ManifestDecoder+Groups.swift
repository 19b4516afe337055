import PrewarmCore

/// `groups:` — each group's name, priority, settings (defaults merged in) and URL source.
extension ManifestDecoder {
    static let sourceKeys = ["urls", "url_file", "url_template"]
    static let groupKeys = ["name"] + sourceKeys + ["values"] + settingKeys

    mutating func decodeGroups(_ node: YAMLNode, defaults: SettingsLayer) -> [Group] {
        guard let items = sequence(node, "groups", expected: "a list of groups") else { return [] }
        if items.isEmpty { report(node, "groups: the list is empty; add at least one group") }
        var groups: [Group] = []
        var seen: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            guard let group = decodeGroup(item, index: index, defaults: defaults, seen: &seen) else { continue }
            groups.append(group)
        }
        return groups
    }

    private mutating func decodeGroup(
        _ node: YAMLNode, index: Int, defaults: SettingsLayer, seen: inout [String: Int]
    ) -> Group? {
        guard let entries = mapping(node, "group") else { return nil }
        let issuesBefore = issues.count
        var settings = defaults.settings
        settings.concurrency = nil  // `defaults.concurrency` bounds the job, not each group
        var priority = defaults.priority
        var name: String?
        var sourceEntries: [(key: String, keyNode: YAMLNode, value: YAMLNode)] = []
        var valuesEntry: (keyNode: YAMLNode, value: YAMLNode)?

        for entry in entries {
            switch entry.key {
            case "name":
                name = self.name(entry.value, "group name")
                if let name {
                    if let firstLine = seen[name] {
                        report(entry.value, "duplicate group name '\(name)' (first at line \(firstLine)); give each group its own name")
                    } else {
                        seen[name] = entry.value.line
                    }
                }
            case "urls", "url_file", "url_template": sourceEntries.append(entry)
            case "values": valuesEntry = (entry.keyNode, entry.value)
            default:
                if !applySetting(entry.key, entry.value, to: &settings, priority: &priority) {
                    reportUnknownKey(entry.key, at: entry.keyNode, in: "group \(label(name, index))", known: Self.groupKeys)
                }
            }
        }
        if !entries.contains(where: { $0.key == "name" }) {
            report(node, "group #\(index + 1): missing 'name'; every group needs one (it names the group in reports)")
        }
        let groupLabel = label(name, index)

        var source: URLSource?
        switch sourceEntries.count {
        case 0:
            report(node, "group \(groupLabel) has no URLs; add 'urls', 'url_file' or 'url_template'")
        case 1:
            let entry = sourceEntries[0]
            source = decodeSource(entry.key, entry.keyNode, entry.value, values: valuesEntry, group: groupLabel)
        default:
            let names = sourceEntries.map { "'\($0.key)'" }.joined(separator: " and ")
            report(sourceEntries[1].keyNode, "group \(groupLabel) has \(names); use only one of urls, url_file, url_template")
        }
        if let valuesEntry, sourceEntries.count == 1, sourceEntries[0].key != "url_template" {
            report(valuesEntry.keyNode, "group \(groupLabel): 'values' only goes with 'url_template'")
        }

        if settings.options.isSuperset(of: [.fromCacheOnly, .fromLoaderOnly]) {
            report(node, "group \(groupLabel): options from_cache_only and from_loader_only contradict each other; keep one")
        }
        for option in settings.options {
            if option == .highPriority { priority = priority.raised }
            if option == .lowPriority { priority = priority.lowered }
        }
        guard issues.count == issuesBefore, let name, let source else { return nil }
        return Group(name: name, priority: priority, settings: settings, source: source, line: node.line)
    }

    private func label(_ name: String?, _ index: Int) -> String {
        name.map { "'\($0)'" } ?? "#\(index + 1)"
    }

    private mutating func decodeSource(
        _ key: String, _ keyNode: YAMLNode, _ value: YAMLNode, values: (keyNode: YAMLNode, value: YAMLNode)?, group: String
    ) -> URLSource? {
        switch key {
        case "urls": return urlList(value, group: group)
        case "url_file": return urlFile(value, keyNode: keyNode, group: group)
        default: return urlTemplate(value, keyNode: keyNode, values: values, group: group)
        }
    }

    // MARK: urls

    private mutating func urlList(_ node: YAMLNode, group: String) -> URLSource? {
        guard let items = sequence(node, "urls", expected: "a list of URLs") else { return nil }
        guard !items.isEmpty else {
            report(node, "group \(group) has no URLs; the 'urls' list is empty")
            return nil
        }
        var urls: [String] = []
        urls.reserveCapacity(items.count)
        for item in items {
            guard let (url, usedVariables) = interpolated(item, "urls", expected: "a URL") else { continue }
            if let problem = URLCheck.problem(url) {
                report(item, "invalid URL '\(shown(url, raw: item, usedVariables))': it \(problem)")
                continue
            }
            urls.append(url)
        }
        return .list(urls)
    }

    /// A URL for a message: as written when it came from variables (no secrets), credentials masked.
    func shown(_ url: String, raw: YAMLNode, _ usedVariables: Bool) -> String {
        Redaction.url(usedVariables ? (raw.scalarText ?? url) : url)
    }

    // MARK: url_file

    /// Bad lines reported per file before the rest are only counted.
    static let maximumLineIssues = 20

    private mutating func urlFile(_ node: YAMLNode, keyNode: YAMLNode, group: String) -> URLSource? {
        guard let path = name(node, "url_file") else { return nil }
        let shownPath = resolvePath(path)
        let absolute = absolutePath(shownPath)
        var count = 0
        var badLines = 0
        var lineIssues: [ManifestIssue] = []
        let failure = URLFile.forEachEntry(path: absolute) { entry in
            if let problem = URLCheck.problem(bytes: entry.bytes) {
                badLines += 1
                if badLines <= Self.maximumLineIssues {
                    let text = Redaction.url(String(decoding: entry.bytes, as: UTF8.self))
                    lineIssues.append(ManifestIssue(
                        file: shownPath, line: entry.line, column: entry.column, message: "invalid URL '\(text)': it \(problem)"))
                }
            } else {
                count += 1
            }
            return true
        }
        if let failure {
            report(keyNode, "cannot read url_file '\(path)' (\(absolute)): \(failure)")
            return nil
        }
        issues += lineIssues
        if badLines > Self.maximumLineIssues {
            report(node, "url_file '\(path)' has \(badLines) invalid lines; only the first \(Self.maximumLineIssues) are listed")
        }
        if count == 0 && badLines == 0 {
            report(node, "group \(group) has no URLs; url_file '\(path)' holds only blank and comment lines")
        }
        return badLines == 0 ? .file(path: absolute, count: count) : nil
    }
}
