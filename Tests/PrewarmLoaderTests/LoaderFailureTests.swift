import Foundation
import TestOrigin
import Testing

@testable import PrewarmLoader

@Suite("HTTPLoader failures")
struct LoaderFailureTests {
    @Test("a stalled body times out after the attempt's timeout")
    func stallTimesOut() async throws {
        let fixture = try LoaderFixture()
        fixture.origin.setFile("slow.jpg", contents: LoaderFixture.sampleBytes(count: 20_000))
        var request = fixture.request("/files/slow.jpg?stall=1")
        request.timeout = 1

        let error = try #require(await fixture.loader.load(request).error)

        #expect(error.kind == .timeout)
        #expect(error.failureReason == .timeout)
        #expect(error.status == 200)
        #expect(error.bytesReceived > 0)
        #expect(error.message.contains("timeout"))
    }

    @Test("a body cut short fails as truncated")
    func truncated() async throws {
        let fixture = try LoaderFixture()
        fixture.origin.setFile("cut.jpg", contents: LoaderFixture.sampleBytes(count: 10_000))

        let error = try #require(await fixture.load("/files/cut.jpg?truncate=100").error)

        #expect(error.kind == .truncated)
        #expect(error.bytesReceived == 100)
    }

    @Test("a connection reset before any answer fails as connect")
    func reset() async throws {
        let fixture = try LoaderFixture()
        fixture.origin.setFile("r.jpg", contents: [1])

        let error = try #require(await fixture.load("/files/r.jpg?reset=1").error)

        #expect(error.kind == .connect)
        #expect(error.failureReason == .connect)
        #expect(error.status == nil)
    }

    @Test("a body over maxBytes fails as tooLarge, with and without Content-Length")
    func tooLarge() async throws {
        let fixture = try LoaderFixture()
        var known = fixture.request("/bytes/200000")
        known.maxBytes = 100_000
        let knownError = try #require(await fixture.loader.load(known).error)
        #expect(knownError.kind == .tooLarge)
        #expect(knownError.failureReason == .tooLarge)

        var unknown = fixture.request("/bytes/200000?no_length=1")
        unknown.maxBytes = 100_000
        let unknownError = try #require(await fixture.loader.load(unknown).error)
        #expect(unknownError.kind == .tooLarge)
        #expect(unknownError.bytesReceived <= 100_000)

        var fits = fixture.request("/bytes/100000?no_length=1")
        fits.maxBytes = 100_000
        #expect(await fixture.loader.load(fits).response?.body.count == 100_000)
    }

    @Test("a redirect loop stops at maxRedirects")
    func redirectLoop() async throws {
        let fixture = try LoaderFixture()
        var request = fixture.request("/loop/0")
        request.maxRedirects = 3

        let error = try #require(await fixture.loader.load(request).error)

        #expect(error.kind == .tooManyRedirects)
        #expect(fixture.origin.requestCount(path: "/loop/3") == 1)
        #expect(fixture.origin.requestCount(path: "/loop/4") == 0)
    }

    @Test("a redirect to file:// is refused")
    func redirectToFile() async throws {
        let fixture = try LoaderFixture()

        let error = try #require(
            await fixture.load("/redirect?to=file%3A%2F%2F%2Fetc%2Fpasswd").error)

        #expect(error.kind == .blockedAddress)
        #expect(error.message.contains("only http/https redirects are followed"))
        #expect(error.status == 302 || error.status == 301 || error.status == 307)
    }

    @Test("a URL with another scheme, or malformed, is invalid")
    func invalidURLs() async throws {
        let fixture = try LoaderFixture()

        #expect(
            await fixture.loader.load(LoadRequest(url: "file:///etc/passwd")).error?.kind
                == .invalidURL)
        #expect(
            await fixture.loader.load(LoadRequest(url: "http://exa mple.com[/x")).error?.kind
                == .invalidURL)
    }

    @Test("loopback is refused when denyLoopback is set, naming the address")
    func blockedLoopback() async throws {
        let fixture = try LoaderFixture()
        fixture.origin.setFile("a.jpg", contents: [1, 2])
        var request = fixture.request("/files/a.jpg")
        request.addressPolicy = AddressPolicy(denyLoopback: true)

        let error = try #require(await fixture.loader.load(request).error)

        #expect(error.kind == .blockedAddress)
        #expect(error.message.contains("127.0.0.1"))
        #expect(fixture.origin.totalRequests == 0)
    }

    @Test("a denied CIDR is refused too, also when a redirect leads there")
    func blockedCIDRAfterRedirect() async throws {
        let fixture = try LoaderFixture()
        fixture.origin.setFile("a.jpg", contents: [1, 2])
        let target = "http://127.0.0.2:\(fixture.origin.port)/files/a.jpg"
            .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        var request = fixture.request("/redirect?to=\(target)")
        request.addressPolicy = AddressPolicy(deniedCIDRs: ["127.0.0.2/32"])

        let error = try #require(await fixture.loader.load(request).error)

        #expect(error.kind == .blockedAddress)
        #expect(error.message.contains("127.0.0.2"))
    }

    @Test("a refused port fails as connect")
    func connectRefused() async throws {
        let fixture = try LoaderFixture()
        let port = fixture.origin.port
        fixture.origin.stop()

        let error = try #require(
            await fixture.loader.load(LoadRequest(url: "http://127.0.0.1:\(port)/x")).error)

        #expect(error.kind == .connect)
    }

    @Test("secrets never appear in messages")
    func messagesHaveNoSecrets() async throws {
        let fixture = try LoaderFixture()
        fixture.origin.setFile("s.jpg", contents: [1])
        var request = fixture.request("/files/s.jpg?stall=1")
        request.timeout = 0.3
        request.credentials = Credentials(username: "u", password: "hunter2")

        let error = try #require(await fixture.loader.load(request).error)

        #expect(!error.message.contains("hunter2"))
    }
}
