// One client connection: reads requests (keep-alive, pipelining) and writes replies, with faults.
import Glibc

/// Serves one accepted socket until the client leaves, a fault ends it, or the origin stops.
struct Connection {
    let fd: Int32
    let router: Router
    let state: OriginState

    /// Request heads larger than this are refused; no test needs more.
    private static let maxHeadBytes = 64 * 1024
    private static let dripPieceBytes = 1024

    private var buffer: [UInt8] = []

    init(fd: Int32, router: Router, state: OriginState) {
        self.fd = fd
        self.router = router
        self.state = state
    }

    mutating func run() {
        var abortive = false
        defer { state.closeConnection(fd, abortive: abortive) }
        while !state.isStopped {
            guard let head = readHead() else { return }
            guard let request = HTTPRequest.parse(head: head[...]) else {
                _ = write(.text(400, "malformed request\n"), to: nil, keepAlive: false)
                return
            }
            guard discardBody(of: request) else { return }
            let ordinal = state.beginRequest(request)
            defer { state.endRequest() }
            state.waitWhileHeld(target: request.target)
            if state.isStopped { return }
            switch router.reply(to: request, ordinal: ordinal) {
            case .reset:
                abortive = true
                return
            case .respond(let response):
                guard write(response, to: request, keepAlive: request.keepsAlive) else { return }
            }
        }
    }

    // MARK: Reading

    /// Reads up to the blank line ending a request head; nil on end of stream, error or an oversized head.
    private mutating func readHead() -> [UInt8]? {
        var searchFrom = 0
        while true {
            if let end = Self.headEnd(in: buffer, from: searchFrom) {
                let head = Array(buffer[..<end])
                buffer.removeFirst(end + 4)
                return head
            }
            guard buffer.count <= Self.maxHeadBytes else {
                _ = write(.text(431, "request head too large\n"), to: nil, keepAlive: false)
                return nil
            }
            searchFrom = max(0, buffer.count - 3)
            let more = Socket.receive(fd)
            if more.isEmpty { return nil }
            buffer += more
        }
    }

    private static func headEnd(in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = start
        while index + 3 < bytes.count {
            if bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }

    /// Skips a Content-Length body so the next request on this connection parses; false if unsupported or cut off.
    private mutating func discardBody(of request: HTTPRequest) -> Bool {
        if request.hasChunkedBody {
            _ = write(.text(411, "chunked request bodies are not supported\n"), to: nil, keepAlive: false)
            return false
        }
        var remaining = request.contentLength ?? 0
        while remaining > 0 {
            if buffer.isEmpty {
                buffer = Socket.receive(fd)
                if buffer.isEmpty { return false }
            }
            let taken = min(remaining, buffer.count)
            buffer.removeFirst(taken)
            remaining -= taken
        }
        return true
    }

    // MARK: Writing

    /// Writes a response with its delivery faults; true if the connection may serve another request.
    private func write(_ response: HTTPResponse, to request: HTTPRequest?, keepAlive requestedKeepAlive: Bool) -> Bool {
        let isHead = request?.method == "HEAD"
        let sendsBody = !isHead && !response.forbidsBody
        let keepAlive = requestedKeepAlive && !Self.endsConnection(response.delivery, sendsBody: sendsBody)

        var head = "HTTP/1.1 \(response.status) \(ReasonPhrase.of(response.status))\r\n"
        for header in response.headers { head += "\(header.name): \(header.value)\r\n" }
        if !response.forbidsBody {
            if response.chunked {
                head += "Transfer-Encoding: chunked\r\n"
            } else if response.delivery != .closeDelimited {
                head += "Content-Length: \(response.body.count)\r\n"
            }
        }
        head += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
        head += "\r\n"

        guard sendsBody else { return Socket.sendAll(fd, Array(head.utf8)) && keepAlive }
        let body = response.body
        switch response.delivery {
        case .whole, .closeDelimited:
            // One send for small answers keeps each response in a single segment.
            guard Socket.sendAll(fd, Array(head.utf8) + frame(body[...], chunked: response.chunked, last: true)) else {
                return false
            }
            return keepAlive
        case .stallAtHalf:
            guard
                Socket.sendAll(
                    fd, Array(head.utf8) + frame(body[..<(body.count / 2)], chunked: response.chunked, last: false))
            else { return false }
            Socket.waitForPeerClose(fd)
            return false
        case .truncate(let count):
            let cut = min(count, body.count)
            _ = Socket.sendAll(fd, Array(head.utf8) + frame(body[..<cut], chunked: response.chunked, last: false))
            return false
        case .drip(let milliseconds):
            guard Socket.sendAll(fd, Array(head.utf8)) else { return false }
            var offset = 0
            while offset < body.count {
                let end = min(offset + Self.dripPieceBytes, body.count)
                let isLast = end == body.count
                guard Socket.sendAll(fd, frame(body[offset..<end], chunked: response.chunked, last: isLast)) else {
                    return false
                }
                offset = end
                if !isLast { guard state.sleep(milliseconds: milliseconds) else { return false } }
            }
            if body.isEmpty && response.chunked {
                guard Socket.sendAll(fd, frame([][...], chunked: true, last: true)) else { return false }
            }
            return keepAlive
        }
    }

    /// Faults that leave the body unfinished (or end it by closing) leave the connection unusable.
    private static func endsConnection(_ delivery: BodyDelivery, sendsBody: Bool) -> Bool {
        switch delivery {
        case .whole, .drip: false
        case .closeDelimited: true
        case .stallAtHalf, .truncate: sendsBody
        }
    }

    /// The body bytes as sent: raw, or as one chunk (plus the final zero chunk when `last`).
    private func frame(_ bytes: ArraySlice<UInt8>, chunked: Bool, last: Bool) -> [UInt8] {
        guard chunked else { return Array(bytes) }
        var framed: [UInt8] = []
        if !bytes.isEmpty {
            framed += Array("\(String(bytes.count, radix: 16))\r\n".utf8)
            framed += bytes
            framed += [13, 10]
        }
        if last { framed += Array("0\r\n\r\n".utf8) }
        return framed
    }
}
