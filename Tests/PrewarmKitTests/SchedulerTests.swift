import Foundation
import PrewarmCore
import PrewarmManifest
import Testing

@testable import PrewarmKit

@Suite struct SchedulerTests {
    private func group(
        job: Int = 0, _ index: Int, _ priority: Priority, _ urls: [String], order: Order = .fifo,
        limit: Int? = nil
    ) -> ScheduledGroup {
        ScheduledGroup(
            job: job, group: index, priority: priority, order: order, limit: limit,
            cursor: URLSourceCursor(.list(urls)))
    }

    /// Runs the scheduler to completion, finishing items in start order, recording the start order
    /// and the largest number in flight.
    private func drive(_ scheduler: Scheduler) -> (order: [String], peak: Int) {
        var started: [String] = []
        var running: [WorkItem] = []
        var peak = 0
        while true {
            while let item = scheduler.next() {
                started.append(item.url)
                running.append(item)
            }
            peak = max(peak, running.count)
            guard !running.isEmpty else { break }
            scheduler.finished(running.removeFirst())
        }
        return (started, peak)
    }

    @Test func higherPriorityFinishesBeforeLowerStartsWithOneSlot() {
        let scheduler = Scheduler(
            groups: [
                group(0, .low, ["l1", "l2"]), group(1, .veryHigh, ["v1"]),
                group(2, .high, ["h1", "h2"]),
            ],
            jobLimits: [1], runLimit: nil, keyForURL: { $1 })
        #expect(drive(scheduler).order == ["v1", "h1", "h2", "l1", "l2"])
        #expect(scheduler.isExhausted)
    }

    @Test func lifoReversesWithinTheGroup() {
        let scheduler = Scheduler(
            groups: [group(0, .normal, ["a", "b", "c"], order: .lifo)], jobLimits: [1],
            runLimit: nil, keyForURL: { $1 })
        #expect(drive(scheduler).order == ["c", "b", "a"])
    }

    @Test func boundsAreNeverExceeded() {
        let urls = (0..<50).map { "u\($0)" }
        let jobBound = Scheduler(
            groups: [group(0, .normal, urls)], jobLimits: [3], runLimit: nil, keyForURL: { $1 })
        #expect(drive(jobBound).peak == 3)
        let groupBound = Scheduler(
            groups: [group(0, .high, urls, limit: 2), group(1, .low, ["x"])], jobLimits: [3],
            runLimit: nil, keyForURL: { $1 })
        let result = drive(groupBound)
        #expect(result.peak == 3)
        // The low group used the job's spare slot while the high one was held to 2.
        #expect(result.order.firstIndex(of: "x")! < 10)
        let runBound = Scheduler(
            groups: [group(job: 0, 0, .normal, urls), group(job: 1, 0, .normal, urls)],
            jobLimits: [8, 8], runLimit: 5, keyForURL: { $1 })
        #expect(drive(runBound).peak == 5)
    }

    @Test func templatesExpandFirstKeySlowest() {
        let cursor = URLSourceCursor(
            .template(
                template: "https://x.test/{n}/{size}.jpg",
                values: [
                    TemplateValues(name: "n", values: ["1", "2"]),
                    TemplateValues(name: "size", values: ["s", "m"]),
                ]))
        var urls: [String] = []
        while let url = cursor.next() { urls.append(url) }
        #expect(
            urls == [
                "https://x.test/1/s.jpg", "https://x.test/1/m.jpg", "https://x.test/2/s.jpg",
                "https://x.test/2/m.jpg",
            ])
    }

    @Test func shardsPartitionTheURLs() {
        let urls = (0..<300).map { "https://x.test/\($0).jpg" }
        var seen: [String] = []
        for index in 0..<3 {
            let scheduler = Scheduler(
                groups: [group(0, .normal, urls)], jobLimits: [4], runLimit: nil,
                shard: Shard(index: index, count: 3), keyForURL: { $1 })
            let taken = drive(scheduler).order
            #expect(taken.count > 50, "a shard of 300 URLs over 3 should hold about 100")
            seen += taken
        }
        #expect(seen.sorted() == urls.sorted())
        #expect(Shard(parsing: "2/3") == Shard(index: 2, count: 3))
        #expect(Shard(parsing: "3/3") == nil)
        #expect(Shard(parsing: "x") == nil)
    }

    @Test func drainHandsOutEveryUnstartedURL() {
        let scheduler = Scheduler(
            groups: [group(0, .normal, ["a", "b", "c"]), group(1, .low, ["d"])], jobLimits: [1],
            runLimit: nil, keyForURL: { $1 })
        let first = scheduler.next()
        #expect(first?.url == "a")
        var rest: [String] = []
        scheduler.drainRemaining { rest.append($0.url) }
        #expect(rest == ["b", "c", "d"])
    }
}

@Suite struct URLCursorTests {
    @Test func urlFilesFollowTheLoadersCommentRules() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cursor-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "# header\n\n  https://x.test/a.jpg   # hero\nhttps://x.test/b.jpg\r\n\t# indented comment\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        let cursor = URLSourceCursor(.file(path: path, count: 2))
        var urls: [String] = []
        while let url = cursor.next() { urls.append(url) }
        #expect(urls == ["https://x.test/a.jpg", "https://x.test/b.jpg"])
    }
}
