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

    /// Parses `host` with `inet_pton`; `nil` when it is neither an IPv4 nor an IPv6 literal.
    init?(host: String, port: UInt16) {
        var literal = host
        if literal.hasPrefix("[") && literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            storage = .v4(v4)
            isAny = false
            return
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, literal, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            storage = .v6(v6)
            isAny = literal == "::"
            return
        }
        return nil
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
