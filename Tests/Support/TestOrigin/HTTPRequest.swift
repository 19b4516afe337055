// One parsed HTTP/1.1 request head.

struct HTTPRequest: Sendable {
    var method: String
    /// The request-target exactly as sent (path + query).
    var target: String
    var version: String
    /// Header fields in arrival order, names lowercased.
    var headerFields: [(name: String, value: String)]

    /// The percent-decoded path part of the target.
    var path: String { PercentDecoding.decode(String(rawPath)) }
    /// The undecoded path part of the target.
    var rawPath: Substring { target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0] }
    /// Query parameters, percent-decoded; the last occurrence of a name wins.
    var query: [String: String] { Self.parseQuery(target) }

    /// The first value of a header (name is matched case-insensitively).
    func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headerFields.first { $0.name == lowered }?.value
    }

    /// Headers as a dictionary; repeated fields are joined with ", " as HTTP allows.
    var headerDictionary: [String: String] {
        var result: [String: String] = [:]
        for field in headerFields {
            if let existing = result[field.name] {
                result[field.name] = existing + ", " + field.value
            } else {
                result[field.name] = field.value
            }
        }
        return result
    }

    /// Whether the client lets the connection stay open after this request.
    var keepsAlive: Bool {
        let connection = header("connection")?.lowercased() ?? ""
        if connection.contains("close") { return false }
        if version == "HTTP/1.0" { return connection.contains("keep-alive") }
        return true
    }

    /// The body length the client announced, if any.
    var contentLength: Int? { header("content-length").flatMap { Int($0.trimmingCharacters(in: " \t")) } }

    var hasChunkedBody: Bool { header("transfer-encoding")?.lowercased().contains("chunked") ?? false }

    /// Parses the bytes of a request head (without the terminating blank line); nil if malformed.
    static func parse(head: ArraySlice<UInt8>) -> HTTPRequest? {
        let text = String(decoding: head, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        // Tolerate a stray CRLF before the request line (RFC 9112 §2.2).
        while let first = lines.first, first.isEmpty { lines.removeFirst() }
        guard let requestLine = lines.first else { return nil }
        let parts = requestLine.split(separator: " ")
        guard parts.count == 3, parts[2].hasPrefix("HTTP/") else { return nil }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
            fields.append((name, value))
        }
        return HTTPRequest(
            method: String(parts[0]), target: String(parts[1]), version: String(parts[2]), headerFields: fields)
    }

    static func parseQuery(_ target: String) -> [String: String] {
        let pieces = target.split(separator: "?", maxSplits: 1)
        guard target.contains("?"), pieces.count == 2 else { return [:] }
        var result: [String: String] = [:]
        for pair in pieces[1].split(separator: "&") {
            let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentDecoding.decode(String(nameValue[0]), plusIsSpace: true)
            let value = nameValue.count > 1 ? PercentDecoding.decode(String(nameValue[1]), plusIsSpace: true) : ""
            result[name] = value
        }
        return result
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        var slice = self[...]
        while let first = slice.first, characters.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, characters.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String { self[...].trimmingCharacters(in: set) }
}

enum PercentDecoding {
    /// Decodes %XX escapes; malformed escapes are kept as they are.
    static func decode(_ text: String, plusIsSpace: Bool = false) -> String {
        guard text.contains("%") || (plusIsSpace && text.contains("+")) else { return text }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
