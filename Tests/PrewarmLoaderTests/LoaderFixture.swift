import Foundation
import TestOrigin

@testable import PrewarmLoader

/// A fresh origin and loader per test, so counters and limits never leak between tests.
struct LoaderFixture {
    let origin: TestOrigin
    let loader: HTTPLoader

    init(configuration: LoaderConfiguration = .init()) throws {
        origin = try TestOrigin()
        loader = try HTTPLoader(configuration: configuration)
    }

    func url(_ path: String) -> String { origin.baseURL + path }

    /// A request with short timeouts, as fault tests need.
    func request(_ path: String) -> LoadRequest {
        var request = LoadRequest(url: url(path))
        request.timeout = 2
        request.connectTimeout = 2
        return request
    }

    func load(_ path: String) async -> Result<LoadResponse, LoadError> {
        await loader.load(request(path))
    }

    /// Bytes no image library drew: a deterministic but irregular pattern covering every byte value.
    static func sampleBytes(count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }
}

extension Result where Success == LoadResponse, Failure == LoadError {
    var response: LoadResponse? { try? get() }

    var error: LoadError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// Waits (briefly, polling) until `condition` holds; returns whether it did within `timeout` seconds.
func eventually(timeout: Double = 2, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

extension TestOrigin {
    /// `waitForHeld` blocks its thread; run it on its own thread so the few threads of Swift's
    /// cooperative pool (2 on a 2-core machine) stay free for the loads being waited for.
    /// Waits for `count` requests to be held at the origin. The timeout is only an upper bound on
    /// waiting for that event: under a full parallel `swift test` on 2 cores, synchronous codec
    /// tests can occupy both cooperative threads for seconds before the loads even start.
    func held(count: Int, timeout: Double = 60) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(returning: self.waitForHeld(count: count, timeout: timeout))
            }.start()
        }
    }
}
