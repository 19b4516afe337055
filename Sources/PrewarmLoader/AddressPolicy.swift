import Glibc

/// Which addresses a request may connect to. Checked when curl opens each socket, so DNS answers,
/// redirects and literal IPs are all covered. Link-local addresses (169.254.0.0/16, fe80::/10, where
/// cloud metadata services live) are always refused.
public struct AddressPolicy: Sendable, Hashable {
    /// Refuse 127.0.0.0/8 and ::1.
    public var denyLoopback: Bool
    /// Refuse 10/8, 172.16/12, 192.168/16 and fc00::/7.
    public var denyPrivate: Bool
    /// More ranges to refuse, e.g. `203.0.113.0/24` or `2001:db8::/32`; a bare address is one host.
    public var deniedCIDRs: [String]

    public init(denyLoopback: Bool = false, denyPrivate: Bool = false, deniedCIDRs: [String] = []) {
        self.denyLoopback = denyLoopback
        self.denyPrivate = denyPrivate
        self.deniedCIDRs = deniedCIDRs
    }

    /// True when `text` is an IPv4 or IPv6 address, optionally with a `/prefix` in range.
    public static func validateCIDR(_ text: String) -> Bool {
        IPRange(cidr: text) != nil
    }

    /// Every range this policy refuses, the always-refused link-local ones first.
    var deniedRanges: [IPRange] {
        var ranges = IPRange.linkLocal
        if denyLoopback { ranges += IPRange.loopback }
        if denyPrivate { ranges += IPRange.privateUse }
        ranges += deniedCIDRs.compactMap(IPRange.init(cidr:))
        return ranges
    }
}

/// An address prefix: `bytes` (4 or 16) of which the first `prefixLength` bits must match.
struct IPRange: Sendable, Hashable {
    var bytes: [UInt8]
    var prefixLength: Int
    var text: String

    static let linkLocal = ["169.254.0.0/16", "fe80::/10"].compactMap(IPRange.init(cidr:))
    static let loopback = ["127.0.0.0/8", "::1/128"].compactMap(IPRange.init(cidr:))
    static let privateUse = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"]
        .compactMap(IPRange.init(cidr:))

    init?(cidr: String) {
        let parts = cidr.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2,
            let address = IPRange.parseAddress(String(parts[0]))
        else { return nil }
        let maxBits = address.count * 8
        var prefix = maxBits
        if parts.count == 2 {
            guard let bits = Int(parts[1]), (0...maxBits).contains(bits),
                parts[1].allSatisfy(\.isNumber)
            else { return nil }
            prefix = bits
        }
        bytes = address
        prefixLength = prefix
        text = cidr
    }

    /// Parses a literal IPv4 or IPv6 address into its network-order bytes.
    static func parseAddress(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }

    func contains(_ address: [UInt8]) -> Bool {
        guard address.count == bytes.count else { return false }
        var remaining = prefixLength
        var index = 0
        while remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if address[index] & mask != bytes[index] & mask { return false }
            remaining -= bits
            index += 1
        }
        return true
    }
}

/// The ranges one transfer refuses, matched against each address curl is about to connect to.
struct AddressGuard: Sendable {
    let ranges: [IPRange]

    /// The refused range containing `address` (4 or 16 bytes), if any. IPv4-mapped IPv6 addresses
    /// (::ffff:a.b.c.d) are checked as the IPv4 address they carry.
    func refusal(for address: [UInt8]) -> IPRange? {
        var candidates = [address]
        if address.count == 16, address[0..<10].allSatisfy({ $0 == 0 }), address[10] == 0xFF,
            address[11] == 0xFF
        {
            candidates.append(Array(address[12..<16]))
        }
        for candidate in candidates {
            if let range = ranges.first(where: { $0.contains(candidate) }) { return range }
        }
        return nil
    }

    static func describe(_ address: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = address.count == 4 ? AF_INET : AF_INET6
        let ok = address.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)) != nil
        }
        guard ok else { return "?" }
        return String(
            decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self
        )
    }
}
