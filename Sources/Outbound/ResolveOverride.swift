import Glibc

/// `HOST:PORT:ADDR`: connect to `ADDR` for `HOST` on `PORT` instead of asking DNS, as curl's `--resolve` does
/// (`CURLOPT_RESOLVE`). TLS still verifies the certificate against `HOST`. Lets tests and air-gapped installs
/// point the checks at local servers.
public struct ResolveOverride: Sendable, Equatable, CustomStringConvertible {
    /// Lower-case.
    public let host: String
    public let port: Int
    /// A numeric address: IPv4, or IPv6 (written in brackets in the text form).
    public let address: String

    /// Reads `HOST:PORT:ADDR` (`app-site-association.cdn-apple.com:443:127.0.0.1`, `example.com:443:[::1]`);
    /// nil unless the host is a plain name (letters, digits, `-`, `.`), the port 1 to 65535 and the address a
    /// numeric IPv4 or bracketed IPv6 address.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let port = Int(parts[1]), (1...65535).contains(port) else { return nil }
        let host = parts[0].lowercased()
        guard !host.isEmpty, host.count <= 253, !host.hasPrefix("."), !host.hasPrefix("-"),
            host.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2E })
        else {
            return nil
        }
        var address = String(parts[2])
        var bytes = [UInt8](repeating: 0, count: 16)
        if address.hasPrefix("[") && address.hasSuffix("]") {
            address = String(address.dropFirst().dropLast())
            guard inet_pton(AF_INET6, address, &bytes) == 1 else { return nil }
        } else {
            guard inet_pton(AF_INET, address, &bytes) == 1 else { return nil }
        }
        self.host = host
        self.port = port
        self.address = address
    }

    /// `HOST:PORT:ADDR`, as `CURLOPT_RESOLVE` takes it.
    public var description: String {
        "\(host):\(port):" + (address.contains(":") ? "[\(address)]" : address)
    }
}
