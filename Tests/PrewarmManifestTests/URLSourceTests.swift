import PrewarmManifest
import Testing

@Suite struct URLSourceTests {
    @Test func urlFileSkipsCommentsAndBlankLinesAndTrims() throws {
        let folder = try TempFolder()
        try folder.write(
            "lists/urls.txt",
            "\u{FEFF}# header comment\n  https://x.test/1.jpg  \n\n\t# indented comment\r\nhttps://x.test/2.jpg   # trailing\r\nhttps://x.test/3.jpg")
        let loaded = try manifest(
            "version: 1\ngroups:\n  - { name: g, url_file: lists/urls.txt }\n", in: folder)
        let source = loaded.groups[0].source
        guard case .file(let path, let count) = source else {
            Issue.record("expected a url_file source")
            return
        }
        #expect(path == folder.path + "/lists/urls.txt")
        #expect(count == 3)
        #expect(source.count == 3)
        #expect(allURLs(source) == ["https://x.test/1.jpg", "https://x.test/2.jpg", "https://x.test/3.jpg"])

        var firstTwo: [String] = []
        source.forEachURL { firstTwo.append($0); return firstTwo.count < 2 }
        #expect(firstTwo == ["https://x.test/1.jpg", "https://x.test/2.jpg"])
    }

    @Test func badUrlFileLinesAreReportedAtTheirOwnPosition() throws {
        let folder = try TempFolder()
        let list = try folder.write("urls.txt", "https://x.test/1.jpg\n# ok\n   ftp://x.test/2.jpg\nhttps://x.test/a b.jpg\n")
        let found = try issues("version: 1\ngroups:\n  - { name: g, url_file: urls.txt }\n", in: folder)
        #expect(found.map(\.description) == [
            "\(list):3:4: invalid URL 'ftp://x.test/2.jpg': it has the scheme 'ftp'; only http and https are supported",
            "\(list):4:1: invalid URL 'https://x.test/a b.jpg': it contains a space; encode it as %20",
        ])
    }

    @Test func missingUrlFileIsReportedAtTheKey() throws {
        let folder = try TempFolder()
        let found = try issues("version: 1\ngroups:\n  - name: g\n    url_file: nope.txt\n", in: folder)
        #expect(found.count == 1)
        #expect(found.first.map { "\($0.line):\($0.column)" } == "4:5")
        #expect(found.first?.message.hasPrefix("cannot read url_file 'nope.txt'") == true)
        #expect(found.first?.message.hasSuffix("No such file or directory") == true)
    }

    @Test func largeUrlFileStreamsEveryLine() throws {
        let folder = try TempFolder()
        var text = ""
        for index in 0..<100_000 { text += "https://cdn.x.test/images/\(index).jpg\n" }
        try folder.write("big.txt", text)
        let loaded = try manifest("version: 1\ngroups: [{ name: g, url_file: big.txt }]\n", in: folder)
        let source = loaded.groups[0].source
        #expect(source.count == 100_000)
        var seen = 0
        var last = ""
        source.forEachURL { url in
            seen += 1
            last = url
            return true
        }
        #expect(seen == 100_000)
        #expect(last == "https://cdn.x.test/images/99999.jpg")
    }

    @Test func templateRangesPaddingAndListsExpandInOrder() throws {
        let folder = try TempFolder()
        let loaded = try manifest(
            """
            version: 1
            groups:
              - name: t
                url_template: "https://x.test/{size}/{page}-{n}.jpg?v={size}"
                values:
                  n: "1..3"
                  page: "008..010"
                  size: [s, 2, m]
            """, in: folder)
        let source = loaded.groups[0].source
        #expect(source.count == 27)
        guard case .template(_, let values) = source else {
            Issue.record("expected a template source")
            return
        }
        #expect(values == [
            TemplateValues(name: "n", values: ["1", "2", "3"]),
            TemplateValues(name: "page", values: ["008", "009", "010"]),
            TemplateValues(name: "size", values: ["s", "2", "m"]),
        ])
        let urls = allURLs(source)
        #expect(urls.count == 27)
        #expect(Array(urls.prefix(4)) == [
            "https://x.test/s/008-1.jpg?v=s", "https://x.test/2/008-1.jpg?v=2",
            "https://x.test/m/008-1.jpg?v=m", "https://x.test/s/009-1.jpg?v=s",
        ])
        #expect(urls[9] == "https://x.test/s/008-2.jpg?v=s")
        #expect(urls.last == "https://x.test/m/010-3.jpg?v=m")
        #expect(Set(urls).count == 27)
    }

    @Test func templateValueErrors() throws {
        let folder = try TempFolder()
        let found = try issues(
            """
            version: 1
            groups:
              - name: t
                url_template: "https://x.test/{a}/{b}.jpg"
                values: { a: "5..1", b: [], c: [1] }
              - name: u
                url_template: "https://x.test/{a}.jpg"
                values: { a: "x..y" }
              - name: v
                url_template: "https://x.test/{a}.jpg"
                values: { a: [ok, "bad value"] }
            """, in: folder)
        #expect(found.map { "\($0.line):\($0.column): \($0.message)" } == [
            "5:18: values.a: range '5..1' starts after it ends; write the smaller number first",
            "5:29: values.b: the list is empty; give at least one value",
            "5:33: values key 'c' does not appear in url_template; add '{c}' or remove it",
            "8:18: values.a: expected a range of whole numbers like \"1..500\" or \"001..120\"; got 'x..y'",
            "10:19: url_template makes the invalid URL 'https://x.test/bad value.jpg': it contains a space; encode it as %20",
        ])
    }
}
