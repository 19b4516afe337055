// Tests of the fault-injecting origin itself, with a raw-socket client so nothing hides what is on the wire.
import Foundation
import Glibc
import TestOrigin
import Testing

/// What a raw client saw for one request.
private struct WireResponse {
    var status = 0
    var headers: [String: String] = [:]
    var body: [UInt8] = []
    /// The body ended before its advertised length (or the connection ended before any answer).
    var cutShort = false
    /// The receive timeout fired while the body was incomplete.
    var timedOut = false
}

/// A minimal blocking HTTP/1.1 client over one TCP connection to 127.0.0.1.
private final class RawClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int, receiveTimeout: Double = 2) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(
            tv_sec: Int(receiveTimeout), tv_usec: Int((receiveTimeout - receiveTimeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 {
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    deinit { close(fd) }

    func send(_ method: String = "GET", _ target: String, headers: [String: String] = [:]) {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "\r\n"
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads one response, honoring Content-Length, chunked framing, or close-delimited bodies.
    func readResponse(isHead: Bool = false) -> WireResponse {
        var response = WireResponse()
        guard let headEnd = fill(untilHeadEnd: ()) else {
            response.cutShort = true
            return response
        }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self).split(separator: "\r\n")
        buffer.removeFirst(headEnd + 4)
        response.status = head.first.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        for line in head.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            response.headers[parts[0].lowercased()] =
                parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        }
        if isHead || response.status == 304 || response.status == 204 { return response }
        if response.headers["transfer-encoding"] == "chunked" {
            readChunked(into: &response)
        } else if let length = response.headers["content-length"].flatMap(Int.init) {
            while buffer.count < length, receiveMore(&response) {}
            response.body = Array(buffer.prefix(length))
            buffer.removeFirst(response.body.count)
            response.cutShort = response.body.count < length
        } else {
            while receiveMore(&response) {}
            response.body = buffer
            buffer = []
        }
        return response
    }

    private func readChunked(into response: inout WireResponse) {
        while true {
            guard let lineEnd = fill(untilCRLF: ()) else {
                response.cutShort = true
                return
            }
            let size = Int(String(decoding: buffer[..<lineEnd], as: UTF8.self), radix: 16) ?? 0
            buffer.removeFirst(lineEnd + 2)
            while buffer.count < size + 2, receiveMore(&response) {}
            guard buffer.count >= size + 2 else {
                response.body += buffer
                response.cutShort = true
                return
            }
            response.body += buffer[..<size]
            buffer.removeFirst(size + 2)
            if size == 0 { return }
        }
    }

    private func fill(untilHeadEnd: Void) -> Int? {
        var ignored = WireResponse()
        while true {
            if let index = find([13, 10, 13, 10]) { return index }
            guard receiveMore(&ignored) else { return nil }
        }
    }

    private func fill(untilCRLF: Void) -> Int? {
        var ignored = WireResponse()
        while true {
            if let index = find([13, 10]) { return index }
            guard receiveMore(&ignored) else { return nil }
        }
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        return (0...(buffer.count - pattern.count)).first { buffer[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }

    /// Appends what arrives; false at end of stream, on error, or when the receive timeout fires.
    private func receiveMore(_ response: inout WireResponse) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { response.timedOut = true }
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }

    /// True if the server closed the connection (end of stream or reset) rather than sending anything.
    func peerClosedWithoutAnswer() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 1024)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }
}

/// One GET (or HEAD) on a fresh connection.
private func fetch(_ origin: TestOrigin, _ target: String, method: String = "GET", headers: [String: String] = [:])
    throws -> WireResponse
{
    let client = try RawClient(port: origin.port)
    client.send(method, target, headers: headers)
    return client.readResponse(isHead: method == "HEAD")
}

/// A temporary folder with a few files, removed by `cleanUp()`.
private struct Fixture {
    let root: URL
    let origin: TestOrigin
    let photo: [UInt8]

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("origin-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        // Real JPEG bytes when the Debian backgrounds are installed; otherwise any bytes do for the transport.
        let jpeg = FileManager.default.contents(atPath: "/usr/share/backgrounds/mate/nature/Aqua.jpg")
        photo = jpeg.map { [UInt8]($0) } ?? (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(photo).write(to: root.appendingPathComponent("sub/photo.jpg"))
        try Data("hello\n".utf8).write(to: root.appendingPathComponent("note.txt"))
        origin = try TestOrigin(root: root.path)
    }

    func cleanUp() {
        origin.stop()
        try? FileManager.default.removeItem(at: root)
    }
}

@Suite("TestOrigin")
struct TestOriginTests {
    @Test func servesFileByteIdenticalWithValidators() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let response = try fetch(fixture.origin, "/files/sub/photo.jpg")
        let intact = response.body == fixture.photo  // compared outside #expect: a failing diff of 200 KB is slow
        #expect(response.status == 200 && intact)
        #expect(response.headers["content-type"] == "image/jpeg")
        #expect(response.headers["content-length"] == String(fixture.photo.count))
        let etag = try #require(response.headers["etag"])
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
        #expect(response.headers["last-modified"]?.hasSuffix(" GMT") == true)
        #expect(fixture.origin.baseURL == "http://127.0.0.1:\(fixture.origin.port)")

        let head = try fetch(fixture.origin, "/files/sub/photo.jpg", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty && head.headers["etag"] == etag)
        #expect(try fetch(fixture.origin, "/files/note.txt").headers["content-type"]?.hasPrefix("text/plain") == true)
    }

    @Test func answersConditionalRequestsWith304() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let first = try fetch(fixture.origin, "/files/note.txt")
        let etag = try #require(first.headers["etag"])
        let lastModified = try #require(first.headers["last-modified"])

        let byTag = try fetch(fixture.origin, "/files/note.txt", headers: ["If-None-Match": etag])
        #expect(byTag.status == 304 && byTag.body.isEmpty)
        let byDate = try fetch(fixture.origin, "/files/note.txt", headers: ["If-Modified-Since": lastModified])
        #expect(byDate.status == 304)
        let staleTag = try fetch(fixture.origin, "/files/note.txt", headers: ["If-None-Match": "\"other\""])
        #expect(staleTag.status == 200 && staleTag.body == Array("hello\n".utf8))

        // setFile gives new contents and new validators, so the old ones no longer match.
        fixture.origin.setFile("note.txt", contents: Array("changed\n".utf8))
        let changed = try fetch(fixture.origin, "/files/note.txt", headers: ["If-None-Match": etag])
        #expect(changed.status == 200 && changed.body == Array("changed\n".utf8))
        #expect(changed.headers["etag"] != etag)
        let changedSince = try fetch(fixture.origin, "/files/note.txt", headers: ["If-Modified-Since": lastModified])
        #expect(changedSince.status == 200)
        #expect(try fetch(fixture.origin, "/files/new/only-in-memory.png").status == 404)
        fixture.origin.setFile("new/only-in-memory.png", contents: [1, 2, 3])
        let added = try fetch(fixture.origin, "/files/new/only-in-memory.png")
        #expect(added.body == [1, 2, 3] && added.headers["content-type"] == "image/png")
    }

    @Test func failsTheFirstRequestsThenSucceeds() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let target = "/files/note.txt?fail=2&retry_after=7"
        let statuses = try (0..<3).map { _ in try fetch(fixture.origin, target) }
        #expect(statuses.map(\.status) == [503, 503, 200])
        #expect(statuses[0].headers["retry-after"] == "7")
        #expect(statuses[2].headers["retry-after"] == nil)
        #expect(fixture.origin.requestCount(path: target) == 3)
        #expect(fixture.origin.totalRequests == 3)
        #expect(try fetch(fixture.origin, "/files/note.txt?fail=1&status=429").status == 429)

        fixture.origin.resetCounters()
        #expect(fixture.origin.totalRequests == 0 && fixture.origin.recordedRequests().isEmpty)
    }

    @Test func truncatesStallsAndResets() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let truncated = try fetch(fixture.origin, "/files/sub/photo.jpg?truncate=1000")
        #expect(truncated.status == 200 && truncated.cutShort)
        #expect(truncated.body.count == 1000)
        #expect(truncated.headers["content-length"] == String(fixture.photo.count))

        let stalling = try RawClient(port: fixture.origin.port, receiveTimeout: 0.3)
        stalling.send("GET", "/files/sub/photo.jpg?stall=1")
        let stalled = stalling.readResponse()
        #expect(stalled.timedOut && stalled.cutShort)
        let firstHalf = stalled.body == Array(fixture.photo[..<(fixture.photo.count / 2)])
        #expect(firstHalf)

        let resetting = try RawClient(port: fixture.origin.port)
        resetting.send("GET", "/files/note.txt?reset=1")
        #expect(resetting.peerClosedWithoutAnswer())

        // first=1: the transport fault hits only the first request, so a retry succeeds.
        #expect(try fetch(fixture.origin, "/files/note.txt?truncate=2&first=1").cutShort)
        #expect(try fetch(fixture.origin, "/files/note.txt?truncate=2&first=1").body == Array("hello\n".utf8))
    }

    @Test func chunkedDripAndCloseDelimitedBodiesArriveWhole() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let dripped = try fetch(fixture.origin, "/files/note.txt?drip_ms=1&chunked=1&no_etag=1")
        #expect(dripped.headers["transfer-encoding"] == "chunked" && dripped.headers["content-length"] == nil)
        #expect(dripped.headers["etag"] == nil && dripped.headers["last-modified"] == nil)
        #expect(dripped.body == Array("hello\n".utf8) && !dripped.cutShort)

        let chunked = try fetch(fixture.origin, "/files/sub/photo.jpg?chunked=1")
        let intact = chunked.body == fixture.photo
        #expect(intact && !chunked.cutShort)

        let unsized = try fetch(fixture.origin, "/bytes/5000?no_length=1")
        #expect(unsized.headers["content-length"] == nil && unsized.body.count == 5000)
        #expect(try fetch(fixture.origin, "/bytes/70000").body.count == 70000)
    }

    @Test func keepsConnectionsAliveAcrossRequests() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let client = try RawClient(port: fixture.origin.port)
        for target in ["/files/note.txt", "/status/204", "/files/sub/photo.jpg", "/html"] {
            client.send("GET", target)
        }
        let answers = (0..<4).map { _ in client.readResponse() }
        #expect(answers.map(\.status) == [200, 204, 200, 200])
        let intact = answers[2].body == fixture.photo
        #expect(intact)
        #expect(answers[3].headers["content-type"]?.hasPrefix("text/html") == true)
    }

    @Test func routesStatusRedirectsAndErrors() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let limited = try fetch(fixture.origin, "/status/429?retry_after=1")
        #expect(limited.status == 429 && limited.headers["retry-after"] == "1")
        let redirect = try fetch(fixture.origin, "/redirect?to=http%3A%2F%2F127.0.0.1%3A1%2Fx%3Fa%3Db")
        #expect(redirect.status == 302 && redirect.headers["location"] == "http://127.0.0.1:1/x?a=b")
        let loop = try fetch(fixture.origin, "/loop/4")
        #expect(loop.status == 302 && loop.headers["location"] == "/loop/5")
        #expect(try fetch(fixture.origin, "/files/../secret").status == 403)
        #expect(try fetch(fixture.origin, "/files/sub/%2e%2e/%2e%2e/secret").status == 403)
        #expect(try fetch(fixture.origin, "/files/missing.jpg").status == 404)
        #expect(try fetch(fixture.origin, "/nowhere").status == 404)
    }

    @Test func echoesHeadersAndGatesOnCookies() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let echo = try fetch(fixture.origin, "/echo-headers", headers: ["Authorization": "Bearer abc"])
        #expect(String(decoding: echo.body, as: UTF8.self).contains("authorization: Bearer abc"))
        #expect(fixture.origin.recordedRequests().last?.headers["authorization"] == "Bearer abc")

        #expect(try fetch(fixture.origin, "/need-cookie/note.txt").status == 403)
        let setter = try fetch(fixture.origin, "/set-cookie?session=s1")
        #expect(setter.headers["set-cookie"]?.hasPrefix("session=s1") == true)
        let gated = try fetch(fixture.origin, "/need-cookie/note.txt", headers: ["Cookie": "other=1; session=s1"])
        #expect(gated.status == 200 && gated.body == Array("hello\n".utf8))
    }

    @Test func holdsRequestsAndCountsThemConcurrent() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let origin = fixture.origin
        origin.hold(marker: "held")
        let clients = try (0..<3).map { index in
            let client = try RawClient(port: origin.port)
            client.send("GET", "/files/note.txt?held=\(index)")
            return client
        }
        #expect(origin.waitForHeld(count: 3, timeout: 20))
        #expect(origin.currentConcurrentRequests == 3)
        // Requests without the marker pass while the others are held.
        #expect(try fetch(origin, "/files/note.txt").status == 200)
        #expect(!origin.waitForHeld(count: 4, timeout: 0.05))

        origin.release(marker: "held")
        let answers = clients.map { $0.readResponse() }
        #expect(answers.allSatisfy { $0.status == 200 && $0.body == Array("hello\n".utf8) })
        #expect(origin.maxConcurrentRequests >= 3)
        #expect(origin.maxConcurrentRequests <= 4)
        #expect(origin.recordedRequests().filter { $0.target.contains("held=") }.count == 3)
    }

    @Test func stopReleasesHeldRequestsAndClosesEverything() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let origin = fixture.origin
        origin.hold(marker: "forever")
        let held = try RawClient(port: origin.port)
        held.send("GET", "/files/note.txt?forever")
        let idle = try RawClient(port: origin.port)
        #expect(origin.waitForHeld(count: 1, timeout: 20))

        origin.stop()
        origin.stop()  // idempotent
        #expect(held.peerClosedWithoutAnswer())
        #expect(idle.peerClosedWithoutAnswer())
        #expect(origin.currentConcurrentRequests == 0)
        #expect(throws: (any Error).self) { try RawClient(port: origin.port) }
    }

    @Test func servesManyParallelConnections() throws {
        let fixture = try Fixture()
        defer { fixture.cleanUp() }
        let origin = fixture.origin
        let clients = try (0..<40).map { index in
            let client = try RawClient(port: origin.port)
            client.send("GET", "/files/sub/photo.jpg?n=\(index)")
            return client
        }
        let intact = clients.map { $0.readResponse() }.filter { $0.body == fixture.photo }.count
        #expect(intact == 40)
        #expect(origin.totalRequests == 40)
    }
}
