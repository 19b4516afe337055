import PrewarmManifest
import Testing

/// Every problem in one pass, each at FILE:LINE:COLUMN with a message that says what to do.
@Suite struct ErrorReportingTests {
    @Test func fiveDifferentErrorsAreAllReportedWithTheirPositions() throws {
        let folder = try TempFolder()
        let found = try issues(
            """
            version: 1
            defaults:
              concurency: 4
              timeout: fast
            groups:
              - name: home
                urls: [ftp://cdn.example.com/a.jpg]
              - name: empty
              - name: thumbs
                urls: [https://cdn.example.com/b.jpg]
                variants:
                  - name: t
                    width: 100
                    quality: 150
            """, in: folder)
        let file = folder.path + "/m.yaml"
        #expect(found.map(\.description) == [
            "\(file):3:3: unknown key 'concurency' in defaults (did you mean 'concurrency'?)",
            "\(file):4:12: timeout: expected a duration like 15s, 500ms, 2h; got 'fast'",
            "\(file):7:12: invalid URL 'ftp://cdn.example.com/a.jpg': it has the scheme 'ftp'; only http and https are supported",
            "\(file):8:5: group 'empty' has no URLs; add 'urls', 'url_file' or 'url_template'",
            "\(file):14:18: quality: must be between 1 and 100; got 150",
        ])
    }

    @Test func yamlSyntaxErrorHasLineAndColumn() throws {
        let folder = try TempFolder()
        let found = try issues("version: 1\ngroups:\n  - name: a\n    urls: [https://x.test/a.jpg\n", in: folder)
        #expect(found.count == 1)
        #expect(found.first?.line == 5)
        #expect(found.first?.column == 1)
        #expect(found.first?.message.hasPrefix("YAML syntax error: did not find expected ',' or ']'") == true)
    }

    @Test func badIndentationIsASyntaxError() throws {
        let folder = try TempFolder()
        let found = try issues("version: 1\ngroups:\n  - name: a\n   urls: []\n", in: folder)
        #expect(found.count == 1)
        #expect(found.first.map { "\($0.line):\($0.column)" } == "4:4")
        #expect(found.first?.message.contains("YAML syntax error") == true)
    }

    @Test func anchorsAliasesAndMergeKeysAreRefused() throws {
        let folder = try TempFolder()
        let found = try issues(
            """
            version: 1
            defaults: &base
              timeout: 5s
            groups:
              - name: a
                <<: *base
                urls: [https://x.test/a.jpg]
            """, in: folder)
        let messages = found.map { "\($0.line):\($0.column): \($0.message)" }
        #expect(messages.contains { $0.hasPrefix("2:11: YAML anchors ('&base') are not supported") })
        #expect(messages.contains { $0.hasPrefix("6:5: YAML merge keys ('<<') are not supported") })
        #expect(messages.contains { $0.hasPrefix("6:9: YAML aliases ('*name') are not supported") })
    }

    @Test func headerValueWithALineBreakIsRejected() throws {
        let folder = try TempFolder()
        let found = try issues(
            """
            version: 1
            groups:
              - name: a
                urls: [https://x.test/a.jpg]
                headers: { X-Evil: "a\\r\\nInjected: yes" }
            """, in: folder)
        #expect(found.count == 1)
        #expect(found.first.map { "\($0.line):\($0.column)" } == "5:24")
        #expect(found.first?.message.contains("line break (CR or LF)") == true)
        #expect(found.first?.message.contains("Injected") == false)
    }

    @Test func headerValueWithANewlineFromTheEnvironmentIsRejected() throws {
        let folder = try TempFolder()
        let found = try issues(
            """
            version: 1
            defaults:
              headers:
                Authorization: "Bearer ${TOKEN}"
            groups:
              - { name: a, urls: [https://x.test/a.jpg] }
            """, environment: ["TOKEN": "abc\nX: y"], in: folder)
        #expect(found.map { "\($0.line):\($0.column)" } == ["4:20"])
        #expect(found.first?.message.contains("abc") == false)
    }

    @Test func missingOrWrongVersion() throws {
        let folder = try TempFolder()
        let missing = try issues("groups:\n  - { name: a, urls: [https://x.test/a.jpg] }\n", in: folder)
        #expect(missing.map { "\($0.line):\($0.column): \($0.message)" } == [
            "1:1: missing 'version: 1'; add it as the first line of the manifest"
        ])
        let wrong = try issues("version: 2\ngroups:\n  - { name: a, urls: [https://x.test/a.jpg] }\n", in: folder)
        #expect(wrong.map { "\($0.line):\($0.column)" } == ["1:10"])
        #expect(wrong.first?.message.contains("unsupported manifest version '2'") == true)
    }

    @Test func groupShapeErrors() throws {
        let folder = try TempFolder()
        let found = try issues(
            """
            version: 1
            groups:
              - name: a
                urls: []
              - name: a
                urls: [https://x.test/a.jpg]
                url_file: list.txt
              - name: c
                urls: [https://x.test/c.jpg, "https://x.test/a b.jpg", "http:///nohost.jpg"]
                values: { n: [1] }
              - name: d
                url_template: https://x.test/{n}.jpg
                priority: urgent
                options: [retry_faild]
            """, in: folder)
        let messages = found.map { "\($0.line):\($0.column): \($0.message)" }
        #expect(messages == [
            "4:11: group 'a' has no URLs; the 'urls' list is empty",
            "5:11: duplicate group name 'a' (first at line 3); give each group its own name",
            "7:5: group 'a' has 'urls' and 'url_file'; use only one of urls, url_file, url_template",
            "9:34: invalid URL 'https://x.test/a b.jpg': it contains a space; encode it as %20",
            "9:60: invalid URL 'http:///nohost.jpg': it has no host",
            "10:5: group 'c': 'values' only goes with 'url_template'",
            "12:19: url_template placeholder '{n}' has no values; add 'n' to 'values'",
            "13:15: unknown priority 'urgent'; use one of very_high, high, normal, low, very_low",
            "14:15: unknown option 'retry_faild' (did you mean 'retry_failed'?); use one of "
                + "retry_failed, refresh_cached, from_cache_only, from_loader_only, avoid_decode, "
                + "decode_first_frame_only, scale_down_large_images, allow_invalid_ssl, handle_cookies, "
                + "high_priority, low_priority",
        ])
    }

    @Test func variantAndSettingsErrors() throws {
        let folder = try TempFolder()
        let found = try issues(
            """
            version: 1
            defaults:
              concurrency: 0
              order: random
              max_bytes: lots
              max_pixels: 1.5X
              store_original: maybe
              variants:
                - { name: a, width: 10 }
                - { name: a, height: 10 }
                - { name: b, fit: squash }
                - { name: c, width: 10, format: gif }
            network:
              deny: [loopback, public, 10.0.0.0/33, 100.64.0.0/10, fd00::/8, link_local]
            groups:
              - { name: g, urls: [https://x.test/a.jpg], per_host: zero }
            """, in: folder)
        let messages = found.map { "\($0.line):\($0.column): \($0.message)" }
        #expect(messages == [
            "3:16: concurrency: must be at least 1; got 0",
            "4:10: unknown order 'random'; use one of fifo, lifo",
            "5:14: max_bytes: expected a size like 50MiB, 20GB, 4096 (bytes); got 'lots'",
            "6:15: max_pixels: expected a pixel count like 100M or 40000000; got '1.5X'",
            "7:19: store_original: expected true or false; got 'maybe'",
            "10:7: duplicate variant name 'a' (first at line 9); give each variant its own name",
            "11:7: variant 'b': needs a width, a height or both",
            "11:23: unknown fit 'squash'; use one of contain, cover, fill",
            "12:37: unknown format 'gif'; use one of jpeg, png, webp, original, auto",
            "14:20: unknown address class 'public' in network.deny; use loopback, private, link_local or a CIDR block like 100.64.0.0/10",
            "14:28: network.deny: '10.0.0.0/33' is not a valid CIDR block; write it like 100.64.0.0/10 or fd00::/8",
            "16:56: per_host: expected a whole number; got 'zero'",
        ])
    }

    @Test func wrongTypesAreReported() throws {
        let folder = try TempFolder()
        let found = try issues(
            """
            version: 1
            cache: /tmp/cache
            groups:
              - name: [a]
                urls: https://x.test/a.jpg
                headers: [Accept]
            """, in: folder)
        let messages = found.map { "\($0.line):\($0.column): \($0.message)" }
        #expect(messages == [
            "2:8: cache: expected a mapping of keys and values; got '/tmp/cache'",
            "4:11: group name: expected a string; got a list",
            "5:11: urls: expected a list of URLs; got 'https://x.test/a.jpg'",
            "6:14: headers: expected a mapping of keys and values; got a list",
        ])
    }

    @Test func errorsFromSeveralFilesAreCollectedTogether() throws {
        let folder = try TempFolder()
        let first = try folder.write("a.yaml", "version: 1\ngroups: []\n")
        let second = try folder.write("b.yaml", "version: 1\njbo: x\ngroups:\n  - { name: g, urls: [https://x.test/a.jpg] }\n")
        #expect {
            try ManifestLoader.load(paths: [first, second], environment: [:])
        } throws: { error in
            let errors = try #require(error as? ManifestErrors)
            return errors.description == """
                \(first):2:9: groups: the list is empty; add at least one group
                \(second):2:1: unknown key 'jbo' in the manifest (did you mean 'job'?)
                """
        }
    }

    @Test func missingManifestFile() throws {
        let folder = try TempFolder()
        let path = folder.path + "/nope.yaml"
        #expect {
            try ManifestLoader.load(path: path, environment: [:])
        } throws: { error in
            (error as? ManifestErrors)?.description == "\(path):1:1: cannot read manifest: No such file or directory"
        }
    }

    @Test func deepNestingAndSecondDocumentsAreRefused() throws {
        let folder = try TempFolder()
        let deep = try issues("version: 1\nx: " + String(repeating: "[", count: 100) + "\n", in: folder)
        #expect(deep.map { "\($0.line):\($0.column): \($0.message)" } == ["2:67: YAML is nested more than 64 levels deep"])
        let twoDocuments = try issues(
            "version: 1\ngroups: [{ name: g, urls: ['https://x.test/a'] }]\n---\nversion: 1\n", in: folder)
        #expect(twoDocuments.map { "\($0.line):\($0.column)" } == ["3:1"])
        #expect(twoDocuments.first?.message.hasPrefix("a manifest holds one YAML document") == true)
    }
}
