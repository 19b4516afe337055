import Foundation
import Testing

@testable import PrewarmCache

@Suite struct VerifyTests {
    @Test func verifyNamesCorruptAndTruncatedBodiesAndFixRemovesThem() throws {
        let temp = try TempCache()
        let body = [UInt8]((0..<5000).map { UInt8($0 % 251) })
        var paths: [String] = []
        for name in ["good", "flipped", "truncated"] {
            let key = "https://x/\(name).png"
            paths.append(
                try temp.cache.store(
                    key: key, body: body, metadata: temp.meta(key, format: "png", fetchedAt: now())
                ).path)
        }
        #expect(temp.cache.verify(fix: false).problems.isEmpty)

        var flipped = try #require(readBytes(paths[1]))
        flipped[2500] ^= 0x01
        try Data(flipped).write(to: URL(fileURLWithPath: paths[1]))
        try Data(body.prefix(4000)).write(to: URL(fileURLWithPath: paths[2]))

        let report = temp.cache.verify(fix: false)
        #expect(report.checked == 3)
        let problems = Dictionary(
            uniqueKeysWithValues: report.problems.map { ($0.path, $0.reason) })
        #expect(problems.count == 2)
        #expect(problems[paths[1]]?.contains("sha256") == true)
        #expect(problems[paths[2]]?.contains("size 4000") == true)
        #expect(fileExists(paths[1]))  // without fix nothing is removed

        let fixed = temp.cache.verify(fix: true)
        #expect(fixed.problems.count == 2)
        #expect(!fileExists(paths[1]) && !fileExists(paths[2]))
        #expect(temp.cache.lookup(key: "https://x/flipped.png", maxAge: nil, now: now()) == .absent)
        let after = temp.cache.verify(fix: false)
        #expect(after.problems.isEmpty && after.checked == 1)
        #expect(readBytes(paths[0]) == body)
    }

    @Test func verifyReportsMissingBodyAndUnreadableMetadata() throws {
        let temp = try TempCache()
        let missing = try temp.cache.store(
            key: "m", body: [1], metadata: temp.meta("m", fetchedAt: now()))
        try FileManager.default.removeItem(atPath: missing.path)
        try temp.cache.store(key: "j", body: [1], metadata: temp.meta("j", fetchedAt: now()))
        try Data("{not json".utf8).write(
            to: URL(fileURLWithPath: temp.cache.metadataPath(key: "j")))
        let reasons = temp.cache.verify(fix: true).problems.map(\.reason).sorted()
        #expect(reasons == ["body missing", "metadata unreadable"])
        #expect(temp.cache.verify(fix: false).checked == 0)
    }
}
