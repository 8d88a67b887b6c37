import Glibc

/// An IPv4 or IPv6 address, as the bytes on the wire (4 or 16, network order). What `AddressPolicy` judges: the
/// address a name resolved to, or the one a connection is about to be made to.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    public enum Family: Sendable {
        case ipv4, ipv6
    }

    /// 4 bytes for IPv4, 16 for IPv6. An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) stays IPv6: it is what a
    /// socket of that family connects to, and `AddressPolicy` judges it by the IPv4 address inside.
    public let bytes: [UInt8]

    public var family: Family { bytes.count == 4 ? .ipv4 : .ipv6 }

    /// Parses a numeric address with `inet_pton`: IPv4 dotted quad (no leading zeros, no shorter forms), or IPv6
    /// (no brackets, no zone id); nil for anything else.
    public init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        self.bytes = withUnsafeBytes(of: &v6) { Array($0) }
    }

    /// nil unless `bytes` holds 4 or 16 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// The address of a `sockaddr_in` or `sockaddr_in6` of `length` bytes at `address`, and its port; nil for
    /// another family or a length too short for its own.
    static func of(socketAddress address: UnsafeRawPointer, length: Int) -> (address: IPAddress, port: Int)? {
        let family = address.loadUnaligned(as: sa_family_t.self)
        switch Int32(family) {
        case AF_INET where length >= MemoryLayout<sockaddr_in>.size:
            let socket = address.loadUnaligned(as: sockaddr_in.self)
            var bytes = socket.sin_addr
            return (IPAddress(unchecked: withUnsafeBytes(of: &bytes) { Array($0) }), Int(UInt16(bigEndian: socket.sin_port)))
        case AF_INET6 where length >= MemoryLayout<sockaddr_in6>.size:
            let socket = address.loadUnaligned(as: sockaddr_in6.self)
            var bytes = socket.sin6_addr
            return (IPAddress(unchecked: withUnsafeBytes(of: &bytes) { Array($0) }), Int(UInt16(bigEndian: socket.sin6_port)))
        default:
            return nil
        }
    }

    private init(unchecked bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The canonical text (`inet_ntop`): dotted quad, or RFC 5952 IPv6 (`::ffff:10.0.0.1` for a mapped one).
    public var description: String {
        bytes.withUnsafeBytes { source in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { buffer in
                guard let base = buffer.baseAddress,
                    inet_ntop(family == .ipv4 ? AF_INET : AF_INET6, source.baseAddress, base, socklen_t(buffer.count)) != nil
                else { return "" }
                return String(cString: base)
            }
        }
    }

    /// The IPv4 address in bytes 12 to 15 or 2 to 5 of this IPv6 one, as `AddressPolicy` reads the forms that
    /// reach an IPv4 host.
    func ipv4(at offset: Int) -> IPAddress {
        IPAddress(unchecked: Array(bytes[offset..<offset + 4]))
    }
}
