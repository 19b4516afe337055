import Foundation
import TestOrigin
import Testing

@testable import PrewarmLoader

@Suite("HTTPLoader fetches")
struct LoaderFetchTests {
    @Test("the body arrives byte for byte, with validators and content type")
    func bodyIsIdentical() async throws {
        let fixture = try LoaderFixture()
        let bytes = LoaderFixture.sampleBytes(count: 300_000)
        fixture.origin.setFile("photo.jpg", contents: bytes)

        let response = try #require(await fixture.load("/files/photo.jpg").response)

        #expect(response.status == 200)
        #expect(response.body == bytes)
        #expect(response.contentType == "image/jpeg")
        #expect(response.etag?.isEmpty == false)
        #expect(response.lastModified?.hasSuffix("GMT") == true)
        #expect(response.effectiveURL == fixture.url("/files/photo.jpg"))
        #expect(fixture.loader.totalBytesReceived == Int64(bytes.count))
    }

    @Test("chunked bodies arrive whole")
    func chunkedBody() async throws {
        let fixture = try LoaderFixture()
        let bytes = LoaderFixture.sampleBytes(count: 70_000, seed: 7)
        fixture.origin.setFile("c.png", contents: bytes)

        let response = try #require(await fixture.load("/files/c.png?chunked=1").response)

        #expect(response.body == bytes)
    }

    @Test("HTTP error statuses are responses, not failures")
    func notFoundIsAStatus() async throws {
        let fixture = try LoaderFixture()

        let response = try #require(await fixture.load("/files/missing.jpg").response)

        #expect(response.status == 404)
    }

    @Test("Retry-After is read as seconds, from delta-seconds and from an HTTP-date")
    func retryAfter() async throws {
        let fixture = try LoaderFixture()

        let delta = try #require(await fixture.load("/status/503?retry_after=7").response)
        #expect(delta.status == 503)
        #expect(delta.retryAfter == 7)

        let future = Date().addingTimeInterval(3600)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: future).addingPercentEncoding(
            withAllowedCharacters: .alphanumerics)!
        let dated = try #require(
            await fixture.load("/files/x.jpg?fail=1&status=429&retry_after=\(date)").response)
        #expect(dated.status == 429)
        let seconds = try #require(dated.retryAfter)
        #expect(seconds > 3000 && seconds <= 3600)
    }

    @Test("a redirect is followed to the final response")
    func redirectFollowed() async throws {
        let fixture = try LoaderFixture()
        let bytes = LoaderFixture.sampleBytes(count: 1000)
        fixture.origin.setFile("target.gif", contents: bytes)
        let target = fixture.url("/files/target.gif").addingPercentEncoding(
            withAllowedCharacters: .alphanumerics)!

        let response = try #require(await fixture.load("/redirect?to=\(target)").response)

        #expect(response.status == 200)
        #expect(response.body == bytes)
        #expect(response.effectiveURL == fixture.url("/files/target.gif"))
        #expect(response.contentType == "image/gif")
    }

    @Test("request headers, basic auth and the user agent arrive")
    func headersAndAuth() async throws {
        let fixture = try LoaderFixture(configuration: .init(userAgent: "prewarm/test"))
        var request = fixture.request("/echo-headers")
        request.headers = [HTTPHeaderField(name: "Accept", value: "image/webp,image/*;q=0.8")]
        request.credentials = Credentials(username: "warm", password: "s3cret")

        let response = try #require(await fixture.loader.load(request).response)
        let echoed = String(decoding: response.body, as: UTF8.self).lowercased()

        #expect(echoed.contains("accept: image/webp,image/*;q=0.8"))
        let token = Data("warm:s3cret".utf8).base64EncodedString().lowercased()
        #expect(echoed.contains("authorization: basic \(token)"))
        #expect(echoed.contains("user-agent: prewarm/test"))
    }

    @Test("cookies are kept between requests with useCookies, and not without")
    func cookies() async throws {
        let fixture = try LoaderFixture()
        fixture.origin.setFile("secret.jpg", contents: [1, 2, 3])

        var plainSet = fixture.request("/set-cookie?plain=1")
        plainSet.useCookies = false
        _ = await fixture.loader.load(plainSet)
        let without = try #require(await fixture.load("/need-cookie/secret.jpg").response)
        #expect(without.status == 403)

        var set = fixture.request("/set-cookie?session=abc")
        set.useCookies = true
        #expect(await fixture.loader.load(set).response?.status == 200)
        var need = fixture.request("/need-cookie/secret.jpg")
        need.useCookies = true
        let with = try #require(await fixture.loader.load(need).response)
        #expect(with.status == 200)
        #expect(with.body == [1, 2, 3])

        // A request that does not opt in gets none of the run's cookies.
        let stillWithout = try #require(await fixture.load("/need-cookie/secret.jpg").response)
        #expect(stillWithout.status == 403)
    }

    @Test("a conditional request with the cached ETag or date gets 304 and no body")
    func conditional() async throws {
        let fixture = try LoaderFixture()
        fixture.origin.setFile("c.webp", contents: LoaderFixture.sampleBytes(count: 5000))
        let first = try #require(await fixture.load("/files/c.webp").response)

        var byETag = fixture.request("/files/c.webp")
        byETag.ifNoneMatch = first.etag
        let notModified = try #require(await fixture.loader.load(byETag).response)
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)

        var byDate = fixture.request("/files/c.webp")
        byDate.ifModifiedSince = first.lastModified
        #expect(await fixture.loader.load(byDate).response?.status == 304)

        var stale = fixture.request("/files/c.webp")
        stale.ifNoneMatch = "\"not-the-etag\""
        #expect(await fixture.loader.load(stale).response?.status == 200)
    }
}
