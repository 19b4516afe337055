import PrewarmCore

/// `url_template` with `values`.
extension ManifestDecoder {
    /// Expansions larger than this are checked one value at a time instead of one URL at a time.
    static let maximumCheckedExpansions = 100_000
    /// Invalid expansions reported before the rest are only counted.
    static let maximumTemplateIssues = 5

    mutating func urlTemplate(
        _ node: YAMLNode, keyNode: YAMLNode, values valuesEntry: (keyNode: YAMLNode, value: YAMLNode)?, group: String
    ) -> URLSource? {
        guard let (text, usedVariables) = interpolated(node, "url_template", expected: "a URL with {placeholders}") else {
            return nil
        }
        let template: URLTemplate
        switch URLTemplate.parse(text) {
        case .success(let parsed): template = parsed
        case .failure(let error):
            report(node, error.message)
            return nil
        }
        let values = valuesEntry.map { templateValues($0.value) } ?? []
        let issuesBefore = issues.count
        let placeholders = template.placeholderNames
        for name in placeholders where !values.contains(where: { $0.name == name }) {
            report(valuesEntry?.keyNode ?? node, "url_template placeholder '{\(name)}' has no values; add '\(name)' to 'values'")
        }
        for value in values where !placeholders.contains(value.name) {
            report(value.keyNode, "values key '\(value.name)' does not appear in url_template; add '{\(value.name)}' or remove it")
        }
        guard issues.count == issuesBefore, !values.contains(where: { $0.values == nil }) else { return nil }
        let expanded = values.map { TemplateValues(name: $0.name, values: $0.values ?? []) }

        var total = 1
        for entry in expanded {
            let (product, overflow) = total.multipliedReportingOverflow(by: entry.values.count)
            guard !overflow, product <= Int(Int32.max) else {
                report(node, "url_template expands to more than \(Int32.max) URLs; split the group")
                return nil
            }
            total = product
        }
        checkExpansions(template, expanded, total: total, node: node, raw: usedVariables)
        return issues.count == issuesBefore ? .template(template: text, values: expanded) : nil
    }

    /// One `values:` entry; `values` is nil when it was invalid (already reported).
    struct ValuesEntry {
        var name: String
        var keyNode: YAMLNode
        var values: [String]?
    }

    private mutating func templateValues(_ node: YAMLNode) -> [ValuesEntry] {
        guard let entries = mapping(node, "values") else { return [] }
        return entries.map { entry in
            ValuesEntry(name: entry.key, keyNode: entry.keyNode, values: valueList(entry.value, entry.key))
        }
    }

    private mutating func valueList(_ node: YAMLNode, _ name: String) -> [String]? {
        let what = "values.\(name)"
        switch node.content {
        case .sequence(let items):
            guard !items.isEmpty else {
                report(node, "\(what): the list is empty; give at least one value")
                return nil
            }
            var result: [String] = []
            for item in items {
                guard let text = interpolated(item, what, expected: "a string or a number")?.text else { return nil }
                result.append(text)
            }
            return result
        case .scalar where !node.isNull:
            guard let text = string(node, what) else { return nil }
            switch TemplateRange.expand(text) {
            case .success(let values): return values
            case .failure(let error):
                report(node, "\(what): \(error.message)")
                return nil
            case nil:
                report(node, "\(what): expected a list like [s, m, l] or a range like \"1..500\"; got '\(text)'")
                return nil
            }
        default:
            report(node, "\(what): expected a list like [s, m, l] or a range like \"1..500\"; got \(node.kindDescription)")
            return nil
        }
    }

    /// Expanded URLs must be valid URLs. Small expansions are checked whole; large ones one value
    /// at a time (each value with the first of the others), which still catches every bad value.
    private mutating func checkExpansions(
        _ template: URLTemplate, _ values: [TemplateValues], total: Int, node: YAMLNode, raw usedVariables: Bool
    ) {
        var bad = 0
        var shownURLs: [(url: String, problem: String)] = []
        let check: (String) -> Bool = { url in
            if let problem = URLCheck.problem(url) {
                bad += 1
                if shownURLs.count < Self.maximumTemplateIssues { shownURLs.append((url, problem)) }
            }
            return true
        }
        if total <= Self.maximumCheckedExpansions {
            template.forEachExpansion(values, check)
        } else {
            for (index, entry) in values.enumerated() {
                var single = values.map { TemplateValues(name: $0.name, values: [$0.values[0]]) }
                single[index] = entry
                template.forEachExpansion(single, check)
            }
        }
        for (url, problem) in shownURLs {
            if usedVariables {  // the expanded URL may hold a secret: show the template as written
                report(node, "url_template '\(node.scalarText ?? "")' makes an invalid URL: it \(problem)")
            } else {
                report(node, "url_template makes the invalid URL '\(Redaction.url(url))': it \(problem)")
            }
        }
        if bad > shownURLs.count {
            report(node, "url_template makes \(bad) invalid URLs; only the first \(shownURLs.count) are listed")
        }
    }
}
