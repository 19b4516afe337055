import Testing

@testable import PrewarmLoader

@Suite("Loader parts")
struct LoaderPartsTests {
    @Test("CIDRs and bare addresses validate; junk does not")
    func cidrValidation() {
        for good in ["10.0.0.0/8", "203.0.113.7", "2001:db8::/32", "::1", "0.0.0.0/0", "fe80::/10"]
        {
            #expect(AddressPolicy.validateCIDR(good), "\(good)")
        }
        for bad in [
            "", "10.0.0.0/33", "10.0.0/8", "2001:db8::/129", "host.example", "10.0.0.0/-1",
            "1.2.3.4/8/9", "1.2.3.4/ 8",
        ] {
            #expect(!AddressPolicy.validateCIDR(bad), "\(bad)")
        }
    }

    @Test("link-local is always refused; loopback and private only when asked")
    func policyRanges() throws {
        let open = AddressGuard(ranges: AddressPolicy().deniedRanges)
        #expect(open.refusal(for: [169, 254, 169, 254]) != nil)
        #expect(open.refusal(for: try #require(IPRange.parseAddress("fe80::1"))) != nil)
        #expect(open.refusal(for: [127, 0, 0, 1]) == nil)
        #expect(open.refusal(for: [10, 1, 2, 3]) == nil)

        let strict = AddressGuard(
            ranges: AddressPolicy(
                denyLoopback: true, denyPrivate: true, deniedCIDRs: ["198.51.100.0/24"]
            ).deniedRanges)
        #expect(strict.refusal(for: [127, 9, 9, 9])?.text == "127.0.0.0/8")
        #expect(strict.refusal(for: try #require(IPRange.parseAddress("::1"))) != nil)
        #expect(strict.refusal(for: [172, 31, 255, 255]) != nil)
        #expect(strict.refusal(for: [172, 32, 0, 0]) == nil)
        #expect(strict.refusal(for: [192, 168, 1, 1]) != nil)
        #expect(strict.refusal(for: try #require(IPRange.parseAddress("fd12::1"))) != nil)
        #expect(strict.refusal(for: [198, 51, 100, 200])?.text == "198.51.100.0/24")
        #expect(strict.refusal(for: [198, 51, 101, 1]) == nil)
        #expect(strict.refusal(for: [93, 184, 216, 34]) == nil)
        // IPv4-mapped IPv6 cannot sneak past an IPv4 rule.
        #expect(strict.refusal(for: try #require(IPRange.parseAddress("::ffff:10.0.0.1"))) != nil)
    }

    @Test("only the final response's headers are kept, names lowercased")
    func headerParsing() {
        var headers = ResponseHeaders()
        for line in [
            "HTTP/1.1 302 Found\r\n", "Location: /b\r\n", "ETag: \"old\"\r\n", "\r\n",
            "HTTP/1.1 200 OK\r\n", "Content-Type: image/png\r\n", "ETag:  \"new\" \r\n",
            "Vary: Accept\r\n", "Vary: Cookie\r\n", "\r\n",
        ] {
            headers.consume(line: line)
        }
        #expect(headers.responsesSeen == 2)
        #expect(headers.fields["location"] == nil)
        #expect(headers.fields["etag"] == "\"new\"")
        #expect(headers.fields["content-type"] == "image/png")
        #expect(headers.fields["vary"] == "Accept, Cookie")
    }

    @Test("Retry-After: delta-seconds, HTTP-date, past dates and junk")
    func retryAfterParsing() {
        func parse(_ value: String, now: Double = 784_111_777) -> Double? {
            var headers = ResponseHeaders()
            headers.consume(line: "HTTP/1.1 503 Busy\r\n")
            headers.consume(line: "Retry-After: \(value)\r\n")
            return headers.retryAfter(now: now)
        }
        #expect(parse("120") == 120)
        // 784111777 is Sun, 06 Nov 1994 08:49:37 GMT (RFC 9110's example date).
        #expect(parse("Sun, 06 Nov 1994 08:50:37 GMT") == 60)
        #expect(parse("Sun, 06 Nov 1994 08:00:00 GMT") == 0)
        #expect(parse("soon") == nil)
    }

    @Test("the start queue holds per-host and total limits and spaces starts by the rate")
    func startQueue() {
        func take(_ queue: inout StartQueue, at now: Double) -> [UInt64] {
            queue.takeStartable(now: now).map(\.id)
        }
        var queue = StartQueue(perHost: 2, total: 3, rate: 0)
        for id in 1...4 {
            queue.enqueue(id: UInt64(id), request: LoadRequest(url: "http://a.test/\(id)"))
        }
        queue.enqueue(id: 5, request: LoadRequest(url: "http://B.test:8080/x"))
        queue.enqueue(id: 6, request: LoadRequest(url: "http://user:pw@c.test/x"))
        #expect(take(&queue, at: 0) == [1, 2, 5])  // a.test is full at 2, the total at 3
        queue.finished(id: 1)
        #expect(take(&queue, at: 0) == [3])
        queue.finished(id: 5)
        #expect(take(&queue, at: 0) == [6])
        let removed = queue.removeWaiting(id: 4)
        #expect(removed)
        #expect(queue.isEmpty)

        var rated = StartQueue(perHost: 0, total: 0, rate: 2)
        for id in 1...3 {
            rated.enqueue(id: UInt64(id), request: LoadRequest(url: "http://a.test/\(id)"))
        }
        rated.enqueue(id: 9, request: LoadRequest(url: "http://other.test/"))
        #expect(take(&rated, at: 10) == [1, 9])
        #expect(rated.nextRateLimitedStart(now: 10) == 10.5)
        #expect(take(&rated, at: 10.4) == [])
        #expect(take(&rated, at: 10.5) == [2])
        #expect(take(&rated, at: 11) == [3])
    }

    @Test("the host key drops user info and case, keeps the port")
    func hostKey() {
        #expect(
            StartQueue.host(of: "https://u:p@CDN.Example.com:8443/a?b#c") == "cdn.example.com:8443")
        #expect(StartQueue.host(of: "http://[::1]:80/x") == "[::1]:80")
    }

    @Test("failure kinds map to the report's reasons")
    func failureReasons() {
        #expect(LoadError(kind: .cancelled, message: "").failureReason == nil)
        #expect(LoadError(kind: .other, message: "").failureReason == .connect)
        #expect(LoadError(kind: .blockedAddress, message: "").failureReason == .blockedAddress)
        #expect(
            LoadError(kind: .tooManyRedirects, message: "").failureReason?.code
                == "too_many_redirects")
    }
}
