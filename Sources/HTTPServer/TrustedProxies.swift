import Glibc

/// The proxies whose forwarding headers (`Forwarded`, `X-Forwarded-For`, `X-Forwarded-Proto`) are believed:
/// a list of address ranges (`10.0.0.0/8`, `::1`, `fd00::/8`). Empty by default: then every request's client
/// is the socket's peer and those headers are ignored, as they are from any peer not in the list (anyone can
/// send them).
///
/// Addresses are compared as 16 bytes, IPv4 as IPv4-mapped IPv6 (`::ffff:a.b.c.d`), so a dual-stack socket's
/// IPv4 peers match IPv4 ranges.
public struct TrustedProxies: Sendable, Equatable {
    /// One CIDR range: the addresses equal to `address` in the bits `mask` keeps.
    struct Range: Sendable, Equatable {
        let address: IPAddress
        let mask: SIMD16<UInt8>

        init(address: IPAddress, prefixLength: Int) {
            var mask = SIMD16<UInt8>(repeating: 0)
            for index in 0..<16 {
                let kept = min(max(prefixLength - index * 8, 0), 8)
                mask[index] = kept == 8 ? 0xFF : UInt8(truncatingIfNeeded: 0xFF << (8 - kept))
            }
            self.mask = mask
            self.address = address
        }

        func contains(_ candidate: IPAddress) -> Bool {
            candidate.bytes & mask == address.bytes & mask
        }
    }

    let ranges: [Range]

    /// No proxy is trusted.
    public init() { ranges = [] }

    /// Parses a comma-separated list of addresses and CIDR ranges (`127.0.0.1, 10.0.0.0/8, fd00::/8`);
    /// blanks around entries and empty entries are skipped.
    /// - Returns: nil when an entry is neither an address nor `address/prefix` with a prefix in range for its
    ///   family, or its address has bits set beyond the prefix (`10.0.0.1/8` is a mistake for `10.0.0.0/8`).
    public init?(parsing text: String) {
        var ranges: [Range] = []
        for entry in text.split(separator: ",") {
            let entry = String(entry).trimmingASCIIWhitespace()
            if entry.isEmpty { continue }
            let parts = entry.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count <= 2, let address = IPAddress(String(parts[0])) else { return nil }
            let width = address.isIPv4 ? 32 : 128
            var length = width
            if parts.count == 2 {
                guard parts[1].allSatisfy({ $0 >= "0" && $0 <= "9" }), let value = Int(parts[1]), (0...width).contains(value) else {
                    return nil
                }
                length = value
            }
            let range = Range(address: address, prefixLength: length + (address.isIPv4 ? 96 : 0))
            guard address.bytes & range.mask == address.bytes else { return nil }
            ranges.append(range)
        }
        self.ranges = ranges
    }

    /// Whether no proxy is trusted (the default): the server then reads no forwarding header.
    public var isEmpty: Bool { ranges.isEmpty }

    /// Whether `address` is in one of the ranges.
    func contains(_ address: IPAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// Whether the textual address `text` (`10.1.2.3`, `::1`) is in one of the ranges.
    public func contains(address text: String) -> Bool {
        IPAddress(text).map(contains) ?? false
    }
}
