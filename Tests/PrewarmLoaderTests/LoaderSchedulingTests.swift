import Foundation
import TestOrigin
import Testing

@testable import PrewarmLoader

@Suite("HTTPLoader scheduling")
struct LoaderSchedulingTests {
    @Test("identical requests in flight are fetched once and all get the response")
    func coalescing() async throws {
        let fixture = try LoaderFixture()
        let bytes = LoaderFixture.sampleBytes(count: 4096)
        fixture.origin.setFile("same.jpg", contents: bytes)
        fixture.origin.hold(marker: "same.jpg")
        defer { fixture.origin.release(marker: "same.jpg") }

        let loader = fixture.loader
        let request = fixture.request("/files/same.jpg")
        let first = Task { await loader.load(request) }
        #expect(await fixture.origin.held(count: 1, timeout: 60))
        let others = (0..<3).map { _ in Task { await loader.load(request) } }
        #expect(await eventually { loader.waitingCallers == 4 })
        fixture.origin.release(marker: "same.jpg")

        var bodies = [await first.value.response?.body]
        for task in others { bodies.append(await task.value.response?.body) }
        #expect(bodies.allSatisfy { $0 == bytes })
        #expect(fixture.origin.requestCount(path: "/files/same.jpg") == 1)
    }

    @Test("requests that differ in a header are not coalesced")
    func differentHeadersNotCoalesced() async throws {
        let fixture = try LoaderFixture()
        fixture.origin.setFile("v.jpg", contents: [9])
        var a = fixture.request("/files/v.jpg")
        a.headers = [HTTPHeaderField(name: "Accept", value: "image/webp")]
        var b = fixture.request("/files/v.jpg")
        b.headers = [HTTPHeaderField(name: "Accept", value: "image/png")]

        async let first = fixture.loader.load(a)
        async let second = fixture.loader.load(b)
        _ = await (first, second)

        #expect(fixture.origin.requestCount(path: "/files/v.jpg") == 2)
    }

    @Test("at most perHostConnections requests reach one host at once")
    func perHostLimit() async throws {
        let fixture = try LoaderFixture(configuration: .init(perHostConnections: 2))
        fixture.origin.setFile("p.jpg", contents: LoaderFixture.sampleBytes(count: 100))
        fixture.origin.hold(marker: "held")
        defer { fixture.origin.release(marker: "held") }

        let loader = fixture.loader
        let tasks = (0..<6).map { index in
            Task { await loader.load(fixture.request("/files/p.jpg?held=\(index)")) }
        }
        #expect(await fixture.origin.held(count: 2, timeout: 60))
        let thirdGotThrough = await fixture.origin.held(count: 3, timeout: 0.3)
        #expect(!thirdGotThrough)
        fixture.origin.release(marker: "held")

        for task in tasks { #expect(await task.value.response?.status == 200) }
        #expect(fixture.origin.maxConcurrentRequests <= 2)
        #expect(fixture.origin.totalRequests == 6)
    }

    @Test("cancelling the calling task returns .cancelled and stops the transfer")
    func cancellation() async throws {
        let fixture = try LoaderFixture()
        fixture.origin.setFile("c.jpg", contents: [1, 2, 3])
        fixture.origin.hold(marker: "c.jpg")
        defer { fixture.origin.release(marker: "c.jpg") }
        var request = fixture.request("/files/c.jpg")
        request.timeout = 30  // far longer than the test: only cancellation can end it

        let loader = fixture.loader
        let task = Task { await loader.load(request) }
        #expect(await fixture.origin.held(count: 1, timeout: 60))
        #expect(loader.activeTransfers == 1)
        task.cancel()

        let error = try #require(await task.value.error)
        #expect(error.kind == .cancelled)
        #expect(error.failureReason == nil)
        #expect(await eventually { loader.activeTransfers == 0 })
    }

    @Test("a waiter that cancels leaves the others' shared transfer running")
    func cancelOneOfCoalesced() async throws {
        let fixture = try LoaderFixture()
        fixture.origin.setFile("k.jpg", contents: [4, 5, 6])
        fixture.origin.hold(marker: "k.jpg")
        defer { fixture.origin.release(marker: "k.jpg") }
        let loader = fixture.loader
        let request = fixture.request("/files/k.jpg")

        let staying = Task { await loader.load(request) }
        #expect(await fixture.origin.held(count: 1, timeout: 60))
        let leaving = Task { await loader.load(request) }
        #expect(await eventually { loader.waitingCallers == 2 })
        leaving.cancel()
        #expect(await leaving.value.error?.kind == .cancelled)
        fixture.origin.release(marker: "k.jpg")

        #expect(await staying.value.response?.body == [4, 5, 6])
    }

    @Test("an already cancelled task returns .cancelled without a request")
    func cancelledBeforeStart() async throws {
        let fixture = try LoaderFixture()
        let loader = fixture.loader
        let request = fixture.request("/files/never.jpg")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await loader.load(request)
        }

        #expect(await task.value.error?.kind == .cancelled)
    }

    @Test("shutdown cancels requests in flight and refuses new ones")
    func shutdown() async throws {
        let fixture = try LoaderFixture()
        fixture.origin.setFile("s.jpg", contents: [1])
        fixture.origin.hold(marker: "s.jpg")
        defer { fixture.origin.release(marker: "s.jpg") }
        let loader = fixture.loader
        let request = fixture.request("/files/s.jpg")

        let task = Task { await loader.load(request) }
        #expect(await fixture.origin.held(count: 1, timeout: 60))
        loader.shutdown()
        loader.shutdown()

        #expect(await task.value.error?.kind == .cancelled)
        #expect(await loader.load(request).error?.kind == .cancelled)
    }

    @Test("the per-host rate spaces request starts")
    func perHostRate() async throws {
        let fixture = try LoaderFixture(configuration: .init(perHostRate: 4))
        fixture.origin.setFile("r.jpg", contents: [1])
        let loader = fixture.loader
        let started = Date()

        await withTaskGroup(of: Void.self) { group in
            for index in 0..<3 {
                group.addTask { _ = await loader.load(fixture.request("/files/r.jpg?n=\(index)")) }
            }
        }

        // Three starts at 4/s need two intervals of 0.25 s between the first and the last.
        #expect(Date().timeIntervalSince(started) >= 0.45)
        #expect(fixture.origin.totalRequests == 3)
    }

    @Test(
        "the timeout counts from the start, not from when the request was queued for a connection")
    func queuedRequestKeepsItsTimeout() async throws {
        let fixture = try LoaderFixture(configuration: .init(perHostConnections: 1))
        fixture.origin.setFile("q.jpg", contents: [7])
        fixture.origin.hold(marker: "holdme")
        defer { fixture.origin.release(marker: "holdme") }
        let loader = fixture.loader
        var first = fixture.request("/files/q.jpg?holdme=1")
        first.timeout = 30
        var queued = fixture.request("/files/q.jpg?queued=1")
        queued.timeout = 0.3

        let firstTask = Task { await loader.load(first) }
        #expect(await fixture.origin.held(count: 1, timeout: 60))
        let queuedTask = Task { await loader.load(queued) }
        // Time has to pass here: longer than the queued request's whole timeout.
        try await Task.sleep(for: .milliseconds(600))
        fixture.origin.release(marker: "holdme")

        #expect(await firstTask.value.response?.status == 200)
        #expect(await queuedTask.value.response?.body == [7])
    }
}
