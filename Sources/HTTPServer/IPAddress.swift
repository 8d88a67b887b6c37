import Glibc

/// An IPv4 or IPv6 address as 16 bytes (IPv4 mapped into `::ffff:0:0/96`): the one parser of address literals,
/// for the trusted proxies and the address the server binds (`SocketAddress`).
struct IPAddress: Sendable, Equatable {
    var bytes = SIMD16<UInt8>(repeating: 0)

    init() {}

    /// Parses a numeric IPv4 or IPv6 address (`inet_pton`, no zone id); nil for anything else.
    init?(_ text: String) {
        self.init()
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self = IPAddress(ipv4: v4)
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        var bytes = SIMD16<UInt8>(repeating: 0)
        withUnsafeBytes(of: &v6) { source in
            for index in 0..<16 { bytes[index] = source[index] }
        }
        self.bytes = bytes
    }

    /// An IPv4 address, mapped.
    init(ipv4: in_addr) {
        var v4 = ipv4
        bytes[10] = 0xFF
        bytes[11] = 0xFF
        withUnsafeBytes(of: &v4) { source in
            for index in 0..<4 { bytes[12 + index] = source[index] }
        }
    }

    /// The address as `in_addr` when it is an IPv4(-mapped) one.
    var ipv4: in_addr? {
        guard isIPv4 else { return nil }
        var address = in_addr()
        withUnsafeMutableBytes(of: &address) { target in
            for index in 0..<4 { target[index] = bytes[12 + index] }
        }
        return address
    }

    /// The address as `in6_addr`.
    var ipv6: in6_addr {
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { target in
            for index in 0..<16 { target[index] = bytes[index] }
        }
        return address
    }

    /// Whether this is the IPv6 wildcard `::`.
    var isIPv6Any: Bool { bytes == SIMD16(repeating: 0) }

    /// Whether this is an IPv4(-mapped) address.
    var isIPv4: Bool {
        (0..<10).allSatisfy { bytes[$0] == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
    }

    /// The canonical text, as the server writes a socket's peer: dotted quad for IPv4 (mapped ones
    /// included), RFC 5952 form for IPv6 (`inet_ntop`).
    var text: String {
        if isIPv4 { return "\(bytes[12]).\(bytes[13]).\(bytes[14]).\(bytes[15])" }
        var address = ipv6
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { buffer in
            guard let base = buffer.baseAddress, inet_ntop(AF_INET6, &address, base, socklen_t(buffer.count)) != nil else { return "" }
            return String(cString: base)
        }
    }
}
