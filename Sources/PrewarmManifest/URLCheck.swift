/// Checks that a string is an absolute `http` or `https` URL with a host, over its UTF-8 bytes
/// (a `url_file` may hold millions of lines, so no Foundation parsing per URL).
enum URLCheck {
    /// nil when `url` is acceptable, else why not (a message fragment, e.g. "has no host").
    static func problem(_ url: String) -> String? {
        var url = url
        return url.withUTF8 { problem(bytes: $0) }
    }

    /// The same check over raw bytes (a `url_file` line).
    static func problem(bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard !bytes.isEmpty else { return "is empty" }
        var index = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
            let byte = bytes[index]
            guard isAlpha(byte) || (index > 0 && (isDigit(byte) || byte == 0x2B || byte == 0x2D || byte == 0x2E)) else {
                return "has no scheme; write it as http://host/path or https://host/path"
            }
            index += 1
        }
        guard index < bytes.count, index > 0 else { return "has no scheme; write it as http://host/path or https://host/path" }
        guard isHTTPScheme(UnsafeBufferPointer(rebasing: bytes[0..<index])) else {
            let scheme = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<index]), as: UTF8.self).lowercased()
            return "has the scheme '\(scheme)'; only http and https are supported"
        }
        let scheme = index == 4 ? "http" : "https"
        guard bytes.count >= index + 3, bytes[index + 1] == 0x2F, bytes[index + 2] == 0x2F else {
            return "must start with \(scheme)://"
        }
        for byte in bytes where byte <= 0x20 || byte == 0x7F || byte == 0x22 || byte == 0x3C || byte == 0x3E || byte == 0x5C || byte == 0x60 {
            if byte == 0x20 { return "contains a space; encode it as %20" }
            if byte < 0x20 || byte == 0x7F { return "contains a control character" }
            return "contains the character '\(Character(Unicode.Scalar(byte)))', which must be percent-encoded"
        }
        let authorityStart = index + 3
        var authorityEnd = authorityStart
        while authorityEnd < bytes.count, bytes[authorityEnd] != 0x2F, bytes[authorityEnd] != 0x3F, bytes[authorityEnd] != 0x23 {
            authorityEnd += 1
        }
        return authorityProblem(UnsafeBufferPointer(rebasing: bytes[authorityStart..<authorityEnd]))
            ?? percentProblem(bytes)
    }

    /// `[user[:password]@]host[:port]`, host a name, an IPv4 address or `[IPv6]`.
    private static func authorityProblem(_ authority: UnsafeBufferPointer<UInt8>) -> String? {
        var hostStart = 0
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) { hostStart = at + 1 }
        let hostAndPort = UnsafeBufferPointer(rebasing: authority[hostStart...])
        var hostEnd = hostAndPort.count
        if hostAndPort.first == UInt8(ascii: "[") {
            guard let close = hostAndPort.firstIndex(of: UInt8(ascii: "]")) else { return "has an unclosed '[' in its host" }
            let inside = hostAndPort[1..<close]
            guard !inside.isEmpty, inside.allSatisfy({ isHexDigit($0) || $0 == 0x3A || $0 == 0x2E }) else {
                return "has an invalid IPv6 host"
            }
            hostEnd = close + 1
            guard hostEnd == hostAndPort.count || hostAndPort[hostEnd] == 0x3A else { return "has an invalid host" }
        } else if let colon = hostAndPort.firstIndex(of: UInt8(ascii: ":")) {
            hostEnd = colon
        }
        guard hostEnd > 0 else { return "has no host" }
        if hostAndPort.first != UInt8(ascii: "[") {
            for byte in hostAndPort[0..<hostEnd] where !(isAlpha(byte) || isDigit(byte) || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x25 || byte >= 0x80) {
                return "has the character '\(Character(Unicode.Scalar(byte)))' in its host"
            }
        }
        if hostEnd < hostAndPort.count {  // ":port"
            let port = hostAndPort[(hostEnd + 1)...]
            guard port.count <= 5, port.allSatisfy(isDigit), (port.isEmpty || portValue(port) <= 65_535) else {
                return "has an invalid port"
            }
        }
        return nil
    }

    private static func percentProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x25 {
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return "has a '%' not followed by two hex digits; write a literal % as %25"
                }
                index += 3
            } else {
                index += 1
            }
        }
        return nil
    }

    private static func portValue(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `http` or `https`, any case, without allocating.
    private static func isHTTPScheme(_ scheme: UnsafeBufferPointer<UInt8>) -> Bool {
        guard scheme.count == 4 || scheme.count == 5 else { return false }
        return scheme[0] | 0x20 == 0x68 && scheme[1] | 0x20 == 0x74 && scheme[2] | 0x20 == 0x74
            && scheme[3] | 0x20 == 0x70 && (scheme.count == 4 || scheme[4] | 0x20 == 0x73)
    }

    private static func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66) }
}
