import CCurl
import Glibc

/// The IP addresses an outbound request may connect to: any public address, and none of the ranges that reach
/// the machine itself, its networks or its cloud's services (loopback, private, link-local, metadata, ...),
/// unless an allowed range (`--webhook-allow-private`) holds it. A URL a workspace gives (a webhook's target)
/// cannot make linkd reach what only linkd can reach.
///
/// It is asked twice: when the URL is given (`check(url:allowHTTP:)`, every address its host resolves to), and
/// by `HTTPClient.send` inside libcurl, for the address each connection is actually made to, so a name that
/// resolves elsewhere at delivery than it did at creation (DNS rebinding) is refused too.
public struct AddressPolicy: Sendable {
    /// A range refused by default, and what it is.
    public struct RefusedRange: Sendable {
        public let range: CIDR
        public let name: String

        init(_ range: String, _ name: String) {
            self.range = try! CIDR(range)
            self.name = name
        }
    }

    /// Ranges re-allowed although a refused range holds them.
    public let allowed: [CIDR]

    /// Refuses every range of `refusedRanges` but those in `allowing`.
    public init(allowing allowed: [CIDR] = []) {
        self.allowed = allowed
    }

    /// The ranges refused unless allowed, the more specific of two overlapping ones first (so a refusal names
    /// the metadata address rather than all of link-local). IPv6 forms that carry an IPv4 address (IPv4-mapped
    /// `::ffff:0:0/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by that IPv4 address instead.
    public static let refusedRanges: [RefusedRange] = [
        RefusedRange("0.0.0.0/8", "this network: 0.0.0.0 reaches the machine itself"),
        RefusedRange("10.0.0.0/8", "private"),
        RefusedRange("100.64.0.0/10", "shared address space (carrier-grade NAT)"),
        RefusedRange("127.0.0.0/8", "loopback"),
        RefusedRange("169.254.169.254/32", "cloud metadata service"),
        RefusedRange("169.254.0.0/16", "link-local"),
        RefusedRange("172.16.0.0/12", "private"),
        RefusedRange("192.0.0.0/24", "IETF protocol assignments"),
        RefusedRange("192.0.2.0/24", "documentation"),
        RefusedRange("192.88.99.0/24", "6to4 relay anycast"),
        RefusedRange("192.168.0.0/16", "private"),
        RefusedRange("198.18.0.0/15", "benchmarking"),
        RefusedRange("198.51.100.0/24", "documentation"),
        RefusedRange("203.0.113.0/24", "documentation"),
        RefusedRange("224.0.0.0/4", "multicast"),
        RefusedRange("255.255.255.255/32", "broadcast"),
        RefusedRange("240.0.0.0/4", "reserved"),
        RefusedRange("::/128", "unspecified"),
        RefusedRange("::1/128", "loopback"),
        RefusedRange("::/96", "IPv4-compatible (deprecated)"),
        RefusedRange("64:ff9b:1::/48", "local-use NAT64"),
        RefusedRange("100::/64", "discard-only"),
        RefusedRange("2001::/32", "Teredo"),
        RefusedRange("2001:db8::/32", "documentation"),
        RefusedRange("fd00:ec2::254/128", "cloud metadata service"),
        RefusedRange("fc00::/7", "unique local (private)"),
        RefusedRange("fe80::/10", "link-local"),
        RefusedRange("fec0::/10", "site-local (deprecated)"),
        RefusedRange("ff00::/8", "multicast"),
    ]

    /// IPv6 forms that reach the IPv4 address they carry, and where it is.
    private static let ipv4Carriers: [(range: CIDR, name: String, offset: Int)] = [
        (try! CIDR("::ffff:0:0/96"), "IPv4-mapped", 12),
        (try! CIDR("64:ff9b::/96"), "NAT64", 12),
        (try! CIDR("2002::/16"), "6to4", 2),
    ]

    /// Whether a connection to `address` is allowed.
    public func allows(_ address: IPAddress) -> Bool {
        refusal(for: address) == nil
    }

    /// Why `address` is refused, naming the range (`10.0.0.1 is in 10.0.0.0/8 (private)`); nil when allowed.
    public func refusal(for address: IPAddress) -> String? {
        if allowed.contains(where: { $0.contains(address) }) { return nil }
        if let carrier = Self.ipv4Carriers.first(where: { $0.range.contains(address) }) {
            let inner = address.ipv4(at: carrier.offset)
            return refusal(for: inner).map { "\(address) is \(carrier.name) (\(carrier.range)) for \(inner), and \($0)" }
        }
        guard let refused = Self.refusedRanges.first(where: { $0.range.contains(address) }) else { return nil }
        return "\(address) is in \(refused.range) (\(refused.name))"
    }

    /// `url` when it may be given as a target: an absolute `https` URL (`http` too when `allowHTTP`), without
    /// user information or fragment, whose host resolves only to allowed addresses (see `check(host:)`).
    /// - Returns: the URL, or a `refusedTarget` failure for its form, a `dns` one when the host does not resolve,
    ///   a `refusedAddress` one naming a refused address and its range.
    public func check(url: String, allowHTTP: Bool) -> Result<OutboundURL, OutboundFailure> {
        Self.target(url, allowHTTP: allowHTTP).flatMap { target in check(host: target.host).map { _ in target } }
    }

    /// The addresses `host` resolves to (`getaddrinfo`, blocking, every family) when each is allowed; a numeric
    /// address (IPv6 with or without brackets) is judged as it is, without DNS.
    /// - Returns: the addresses, or a `dns` failure when there are none, or a `refusedAddress` failure naming the
    ///   first refused one and its range (one refused address refuses the host: a connection may go to any).
    public func check(host: String) -> Result<[IPAddress], OutboundFailure> {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let addresses: [IPAddress]
        if let literal = IPAddress(bare) {
            addresses = [literal]
        } else {
            switch Self.resolve(bare) {
            case .failure(let failure): return .failure(failure)
            case .success(let resolved): addresses = resolved
            }
        }
        for address in addresses {
            if let refusal = refusal(for: address) {
                let via = address.description == bare ? "" : "\(host) resolves to \(address): "
                return .failure(OutboundFailure(.refusedAddress, via + refusal))
            }
        }
        return .success(addresses)
    }

    /// `text` when its form may be sent to under a policy: an absolute `https` URL, or `http` when `allowHTTP`,
    /// without user information or fragment; otherwise a `refusedTarget` failure saying why. The host is not
    /// resolved (`HTTPClient.send` judges the address it connects to).
    public static func target(_ text: String, allowHTTP: Bool) -> Result<OutboundURL, OutboundFailure> {
        guard let url = OutboundURL(text) else {
            return .failure(OutboundFailure(.refusedTarget, "not an absolute http or https URL: \(text)"))
        }
        guard url.scheme == "https" || allowHTTP else {
            return .failure(OutboundFailure(.refusedTarget, "only https URLs are allowed: \(text)"))
        }
        if url.hasUserInfo || url.hasFragment {
            return .failure(OutboundFailure(.refusedTarget, "a URL with user information or a fragment is never sent to: \(text)"))
        }
        return .success(url)
    }

    /// Every address of `host`, each once, in `getaddrinfo`'s order.
    private static func resolve(_ host: String) -> Result<[IPAddress], OutboundFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, nil, &hints, &list)
        guard code == 0 else {
            return .failure(OutboundFailure(.dns, "\(host) does not resolve: \(String(cString: gai_strerror(code)))"))
        }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var entry = list
        while let current = entry {
            if let socketAddress = current.pointee.ai_addr,
                let (address, _) = IPAddress.of(socketAddress: socketAddress, length: Int(current.pointee.ai_addrlen)),
                !addresses.contains(address)
            {
                addresses.append(address)
            }
            entry = current.pointee.ai_next
        }
        guard !addresses.isEmpty else { return .failure(OutboundFailure(.dns, "\(host) has no IPv4 or IPv6 address")) }
        return .success(addresses)
    }
}
