// Maps a request to its reply. Every route is chosen by path, so a manifest can point at any of them.

struct Router: Sendable {
    let files: FileStore
    let state: OriginState

    /// The cookie /need-cookie/ accepts even if /set-cookie never issued it.
    static let defaultCookie = "name=v"

    func reply(to request: HTTPRequest, ordinal: Int) -> Reply {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .respond(.text(405, "only GET and HEAD\n", headers: [("Allow", "GET, HEAD")]))
        }
        let path = request.path
        let query = request.query
        if let relative = path.dropPrefix("/files/") {
            return serveFile(String(relative), request: request, ordinal: ordinal)
        }
        if let relative = path.dropPrefix("/need-cookie/") {
            guard hasIssuedCookie(request) else { return .respond(.text(403, "cookie required\n")) }
            return serveFile(String(relative), request: request, ordinal: ordinal)
        }
        if let code = path.dropPrefix("/status/") {
            return .respond(status(code, query: query))
        }
        if let count = path.dropPrefix("/bytes/") {
            return .respond(bytes(count, query: query))
        }
        if let step = path.dropPrefix("/loop/") {
            guard let step = Int(step) else { return .respond(.text(400, "bad loop step\n")) }
            return .respond(.redirect(to: "/loop/\(step + 1)"))
        }
        switch path {
        case "/html":
            let page =
                "<!doctype html>\n<html><head><title>test origin</title></head><body><p>not an image</p></body></html>\n"
            return .respond(
                HTTPResponse(
                    status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(page.utf8)))
        case "/redirect":
            guard let location = query["to"], !location.isEmpty else { return .respond(.text(400, "missing ?to=\n")) }
            return .respond(.redirect(to: location))
        case "/echo-headers":
            let listing = request.headerFields.map { "\($0.name): \($0.value)\n" }.joined()
            return .respond(.text(200, listing))
        case "/set-cookie":
            return .respond(setCookies(query: query))
        default:
            return .respond(.text(404, "no route for \(path)\n"))
        }
    }

    // MARK: Routes

    private func serveFile(_ relativePath: String, request: HTTPRequest, ordinal: Int) -> Reply {
        let faults = FaultOptions(query: request.query)
        let transportFaults = faults.appliesTransportFaults(toOrdinal: ordinal)
        if transportFaults && faults.delayMilliseconds > 0 {
            _ = state.sleep(milliseconds: faults.delayMilliseconds)
        }
        if transportFaults && faults.reset { return .reset }
        if ordinal <= faults.failCount {
            let retryAfter = faults.retryAfter.map { [(name: "Retry-After", value: $0)] } ?? []
            return .respond(
                .text(faults.failStatus, "injected failure \(ordinal) of \(faults.failCount)\n", headers: retryAfter))
        }
        switch files.lookup(relativePath) {
        case .forbidden:
            return .respond(.text(403, "path leaves the served folder\n"))
        case .notFound:
            return .respond(.text(404, "no file \(relativePath)\n"))
        case .found(let file):
            var response = fileResponse(file, path: relativePath, request: request, validators: !faults.omitValidators)
            if response.status == 200 { faults.apply(to: &response, ordinal: ordinal) }
            return .respond(response)
        }
    }

    private func fileResponse(_ file: StoredFile, path: String, request: HTTPRequest, validators: Bool) -> HTTPResponse
    {
        guard validators else {
            return HTTPResponse(
                status: 200, headers: [("Content-Type", FileStore.contentType(for: path))], body: file.contents)
        }
        let validatorHeaders = [
            (name: "ETag", value: file.etag), (name: "Last-Modified", value: HTTPDate.format(file.lastModified)),
        ]
        if Conditional.isNotModified(request: request, etag: file.etag, lastModified: file.lastModified) {
            return HTTPResponse(status: 304, headers: validatorHeaders)
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", FileStore.contentType(for: path))] + validatorHeaders,
            body: file.contents)
    }

    private func status(_ code: Substring, query: [String: String]) -> HTTPResponse {
        guard let status = Int(code), (200...599).contains(status) else { return .text(400, "bad status code\n") }
        let retryAfter = query["retry_after"].map { [(name: "Retry-After", value: $0)] } ?? []
        return .text(status, "status \(status)\n", headers: retryAfter)
    }

    private func bytes(_ count: Substring, query: [String: String]) -> HTTPResponse {
        guard let count = Int(count), (0...(512 << 20)).contains(count) else { return .text(400, "bad byte count\n") }
        let body = (0..<count).map { UInt8(truncatingIfNeeded: $0 % 251) }
        var response = HTTPResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: body)
        if query["no_length"] == "1" { response.delivery = .closeDelimited }
        return response
    }

    private func setCookies(query: [String: String]) -> HTTPResponse {
        let pairs = query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        for pair in pairs { state.issueCookie(pair) }
        return .text(
            200, "cookies set: \(pairs.joined(separator: "; "))\n",
            headers: pairs.map { ("Set-Cookie", "\($0); Path=/") })
    }

    private func hasIssuedCookie(_ request: HTTPRequest) -> Bool {
        let cookies = request.headerFields.filter { $0.name == "cookie" }.flatMap { $0.value.split(separator: ";") }
        return cookies.contains { cookie in
            let pair = cookie.trimmingCharacters(in: " ")
            return pair == Self.defaultCookie || state.wasIssued(cookie: pair)
        }
    }
}

/// Conditional GET evaluation (RFC 9110 §13.2.2): If-None-Match decides when present, else If-Modified-Since.
enum Conditional {
    static func isNotModified(request: HTTPRequest, etag: String, lastModified: Int) -> Bool {
        if let ifNoneMatch = request.header("if-none-match") {
            return ifNoneMatch.split(separator: ",").contains { candidate in
                let tag = candidate.trimmingCharacters(in: " \t")
                return tag == "*" || tag == etag || tag == "W/" + etag
            }
        }
        if let ifModifiedSince = request.header("if-modified-since"), let since = HTTPDate.parse(ifModifiedSince) {
            return lastModified <= since
        }
        return false
    }
}

extension String {
    /// The rest of the string after `prefix`, or nil if it does not start with it.
    func dropPrefix(_ prefix: String) -> Substring? {
        hasPrefix(prefix) ? self[index(startIndex, offsetBy: prefix.count)...] : nil
    }
}
