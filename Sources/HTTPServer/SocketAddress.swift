import Glibc

/// A parsed IPv4/IPv6 literal plus port, ready for `MHD_OPTION_SOCK_ADDR`.
struct SocketAddress {
    private enum Storage {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }

    private let storage: Storage
    /// Whether the address is the IPv6 wildcard `::` (bound dual-stack).
    let isAny: Bool

    /// Parses `host` as `IPAddress` does (brackets around an IPv6 literal allowed); `nil` when it is neither an
    /// IPv4 nor an IPv6 literal. An IPv4-mapped IPv6 literal binds as the IPv4 address it maps.
    init?(host: String, port: UInt16) {
        var literal = host
        if literal.hasPrefix("[") && literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        guard let address = IPAddress(literal) else { return nil }
        if let ipv4 = address.ipv4 {
            var v4 = sockaddr_in()
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            v4.sin_addr = ipv4
            storage = .v4(v4)
        } else {
            var v6 = sockaddr_in6()
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            v6.sin6_addr = address.ipv6
            storage = .v6(v6)
        }
        isAny = address.isIPv6Any
    }

    var isIPv6: Bool {
        if case .v6 = storage { return true }
        return false
    }

    /// Calls `body` with a `struct sockaddr *` valid for the duration of the call.
    func withSockaddrPointer<T>(_ body: (UnsafePointer<sockaddr>) throws -> T) rethrows -> T {
        switch storage {
        case .v4(var address):
            return try withUnsafePointer(to: &address) { try $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        case .v6(var address):
            return try withUnsafePointer(to: &address) { try $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
    }
}
