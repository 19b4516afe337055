import Foundation
import PrewarmCore
import Testing

@testable import PrewarmReport

@Suite struct ReportJSONTests {
    private func jsonObject(_ report: RunReport) throws -> [String: Any] {
        let data = try ReportWriter.encode(report)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func totalsHaveExactlyTheSpecKeys() throws {
        let object = try jsonObject(Fixtures.report())
        let specKeys: Set<String> = [
            "urls", "finished", "skipped", "fetched", "revalidated", "cached", "blacklisted",
            "missing",
            "failed", "cancelled", "variants_written", "bytes_downloaded", "bytes_written",
        ]
        let totals = try #require(object["totals"] as? [String: Any])
        #expect(Set(totals.keys) == specKeys)
        #expect(totals["finished"] as? Int == 12)
        #expect(totals["skipped"] as? Int == 3)
        let jobs = try #require(object["jobs_detail"] as? [[String: Any]])
        for job in jobs {
            #expect(Set((job["totals"] as? [String: Any] ?? [:]).keys) == specKeys)
            for group in job["groups"] as? [[String: Any]] ?? [] {
                #expect(Set((group["totals"] as? [String: Any] ?? [:]).keys) == specKeys)
            }
        }
    }

    @Test func topLevelShapeMatchesTheSchema() throws {
        let object = try jsonObject(Fixtures.report())
        #expect(object["schema"] as? String == "prewarm.report/v1")
        #expect(object["started_at"] as? String == "2023-11-14T22:13:20.000Z")
        #expect(object["ended_at"] as? String == "2023-11-14T22:13:32.500Z")
        #expect(object["shard"] is NSNull)
        #expect(object["exit_code"] as? Int == 1)
        #expect(object["interrupted"] as? Bool == false)
        let latency = try #require(object["latency_ms"] as? [String: Any])
        #expect(Set(latency.keys) == ["p50", "p90", "p99", "max", "histogram"])
        let jobs = try #require(object["jobs_detail"] as? [[String: Any]])
        let groups = try #require(jobs.first?["groups"] as? [[String: Any]])
        #expect(groups.first?["priority"] as? String == "high")
        let failure = try #require((object["failures"] as? [[String: Any]])?.first)
        #expect(
            Set(failure.keys) == ["url", "job", "group", "reason", "status", "attempts", "detail"])
    }

    @Test func urlsGoOutExactlyAsGivenWithSlashesUnescaped() throws {
        var results = Fixtures.results
        results.append(
            URLResult(
                url: Fixtures.oddURL, job: "avatars", group: "users", outcome: .failed,
                reason: .http(403)))
        let report = Fixtures.report(results: results)
        let text = String(decoding: try ReportWriter.encode(report), as: UTF8.self)
        #expect(!text.contains("\\/"))
        #expect(text.contains("\"url\" : \"https://tls.example.com/x.jpg\""))
        let object = try jsonObject(report)
        let urls = (object["failures"] as? [[String: Any]] ?? []).compactMap {
            $0["url"] as? String
        }
        #expect(urls.contains(Fixtures.oddURL))
    }

    @Test func writeIsAtomicAndRoundTrips() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("report.json").path
        let report = Fixtures.report()
        try ReportWriter.write(report, to: path)
        try ReportWriter.write(report, to: path)  // replaces, leaves nothing behind
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["report.json"])
        #expect(try RunReport.load(path: path) == report)
    }

    @Test func writeToMissingFolderFailsNamingTheFile() {
        let path = "/nonexistent-\(UUID().uuidString)/report.json"
        #expect {
            try ReportWriter.write(Fixtures.report(), to: path)
        } throws: { error in
            "\(error)".contains(path)
        }
    }

    @Test func loadErrorsNameTheFileAndTheProblem() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func load(_ name: String, _ content: String) -> String {
            let path = folder.appendingPathComponent(name).path
            _ = FileManager.default.createFile(atPath: path, contents: Data(content.utf8))
            do {
                _ = try RunReport.load(path: path)
                return "loaded"
            } catch {
                return error.description
            }
        }
        let other = load("package.json", #"{"name": "left-pad", "version": "1.0.0"}"#)
        #expect(other.contains("package.json"))
        #expect(other.contains("not a prewarm report"))
        let wrong = load("v2.json", #"{"schema": "prewarm.report/v2"}"#)
        #expect(wrong.contains("v2.json: not a prewarm report (schema is \"prewarm.report/v2\""))
        let broken = load("broken.json", "{\"schema\": ")
        #expect(broken.hasPrefix(folder.appendingPathComponent("broken.json").path + ": not JSON"))
        let partial = load("partial.json", #"{"schema": "prewarm.report/v1", "version": "1"}"#)
        #expect(partial.contains("partial.json: invalid report: missing key 'jobs'"))
        do {
            _ = try RunReport.load(path: folder.appendingPathComponent("absent.json").path)
            Issue.record("loading a missing file succeeded")
        } catch {
            #expect(error.description.contains("absent.json: cannot read"))
        }
    }
}
