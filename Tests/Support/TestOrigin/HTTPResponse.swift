// What a route answers, including the faults to inject while sending it.

/// How the body is put on the wire.
enum BodyDelivery: Sendable, Equatable {
    /// All of it, framed by Content-Length (or chunked).
    case whole
    /// Headers and half the body, then silence until the client gives up.
    case stallAtHalf
    /// The full Content-Length is advertised, but only this many body bytes are sent before closing.
    case truncate(Int)
    /// 1 KiB pieces, this many milliseconds apart.
    case drip(milliseconds: Int)
    /// No Content-Length: the body ends when the connection closes.
    case closeDelimited
}

struct HTTPResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []
    var delivery: BodyDelivery = .whole
    var chunked = false
    /// Milliseconds to wait before sending anything.
    var delayMilliseconds = 0

    init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A short text/plain answer, e.g. for errors and /status/<code>.
    static func text(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers,
            body: Array(text.utf8))
    }

    static func redirect(to location: String) -> HTTPResponse {
        .text(302, "redirecting to \(location)\n", headers: [("Location", location)])
    }

    /// Statuses that never carry a body (RFC 9110 §6.4.1).
    var forbidsBody: Bool { status == 204 || status == 304 || (100..<200).contains(status) }
}

/// What the server does with a request.
enum Reply: Sendable {
    case respond(HTTPResponse)
    /// Close the connection with RST, without answering.
    case reset
}

enum ReasonPhrase {
    static func of(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status \(status)"
        }
    }
}
