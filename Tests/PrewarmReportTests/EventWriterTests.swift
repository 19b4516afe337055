import Foundation
import PrewarmCore
import Testing

@testable import PrewarmReport

@Suite struct EventWriterTests {
    private func parse(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func oneParsableLinePerResultWithTheSpecKeys() throws {
        let capture = Capture()
        let writer = EventWriter(
            sink: {
                capture.append(String(decoding: $0, as: UTF8.self))
                return true
            }, flushEachLine: true)
        for result in Fixtures.results { writer.write(result) }
        writer.close()
        // Line-buffered: one sink call per line, so `| jq` sees each URL as it ends.
        #expect(capture.all.count == Fixtures.results.count)
        let lines = capture.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == Fixtures.results.count + 1)
        #expect(lines.last == "")

        let fetched = try parse(String(lines[0]))
        #expect(
            Set(fetched.keys) == [
                "url", "job", "group", "outcome", "status", "attempts", "bytes", "ms", "path",
                "variants",
            ])
        #expect(fetched["url"] as? String == "https://cdn.example.com/hero.jpg")
        #expect(fetched["bytes"] as? Int == 1000)
        #expect(fetched["ms"] as? Int == 10)
        #expect(
            fetched["variants"] as? [String: String] == [
                "thumb": "/c/v1/cc/dd/t.webp", "big": "/c/b.jpg",
            ])
        #expect(lines[0].contains(#""url":"https://cdn.example.com/hero.jpg""#))

        let failed = try parse(String(lines[6]))
        #expect(failed["outcome"] as? String == "failed")
        #expect(failed["reason"] as? String == "timeout")
        #expect(failed["detail"] as? String == "Operation timed out\nafter 5000 ms")
        #expect(failed["status"] == nil)

        let cached = try parse(String(lines[2]))
        #expect(
            Set(cached.keys) == [
                "url", "job", "group", "outcome", "attempts", "bytes", "ms", "path",
            ])

        let odd = try parse(String(lines[9]))
        #expect(odd["url"] as? String == Fixtures.oddURL)
    }

    @Test func eightThreadsWriteIntactLinesToAFile() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("events.ndjson").path
        let writer = try EventWriter(destination: path, flushEveryLines: 7)
        let perThread = 500
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for i in 0..<perThread {
                writer.write(
                    URLResult(
                        url: "https://cdn.example.com/\(thread)/\(i)/"
                            + String(repeating: "x", count: i % 300),
                        job: "j", group: "g", outcome: .failed, reason: .http(503), status: 503,
                        attempts: 3,
                        milliseconds: Double(i) / 3, detail: "line one\nline \"two\""))
            }
        }
        writer.close()
        #expect(!writer.hadWriteError)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 8 * perThread)
        var seen = Set<String>()
        for line in lines {
            let object = try parse(String(line))
            #expect(object["reason"] as? String == "http_503")
            seen.insert(try #require(object["url"] as? String))
        }
        #expect(seen.count == 8 * perThread)
    }

    @Test func fileLinesAreBufferedUntilFlushOrClose() throws {
        let capture = Capture()
        let writer = EventWriter(
            sink: {
                capture.append(String(decoding: $0, as: UTF8.self))
                return true
            },
            flushEachLine: false, flushEveryLines: 1000)
        writer.write(Fixtures.results[0])
        writer.write(Fixtures.results[1])
        // Both lines arrive in at most one write; after close every line is out.
        writer.close()
        #expect(capture.text.split(separator: "\n").count == 2)
        writer.write(Fixtures.results[2])  // ignored after close
        writer.flush()
        #expect(capture.text.split(separator: "\n").count == 2)
    }

    @Test func openingAnUnwritablePathNamesIt() {
        let path = "/nonexistent-\(UUID().uuidString)/events.ndjson"
        do {
            _ = try EventWriter(destination: path)
            Issue.record("opened \(path)")
        } catch {
            #expect(error.description.hasPrefix(path + ": cannot open"))
        }
    }
}
