/// Reading the client from the headers of a trusted proxy (docs/DEPLOYMENT.md, "Trusted proxies").
extension TrustedProxies {
    /// What the proxies in front say about the client of a request.
    public struct Forwarding: Sendable, Equatable {
        /// The client's address in the server's own form (`192.0.2.7`, `2001:db8::7`).
        public var client: String
        /// `http` or `https`, when the proxies said which.
        public var scheme: String?
    }

    /// The client of a request that came from a trusted peer: the right-most address of the forwarding chain
    /// that is not itself a trusted proxy (every address left of it was written by the client or by proxies
    /// not trusted, and can be anything). When every hop is trusted, the left-most one.
    ///
    /// `X-Forwarded-For` (which Caddy, nginx, HAProxy and CDNs write) is read when present, `Forwarded`
    /// (RFC 7239) only when it is not: a proxy that writes only `X-Forwarded-For` passes a client's own
    /// `Forwarded` through untouched, so reading both would let any client choose its address. The scheme
    /// comes from the chosen `Forwarded` element's `proto`, or the right-most `X-Forwarded-Proto` value.
    /// - Returns: nil when no forwarding header names a client, or the hop that would be the client is not
    ///   an address (`unknown`, an obfuscated `_node`): the peer then stays the client.
    public func forwarding(_ headers: HTTPHeaders) -> Forwarding? {
        let forwardedFor = headers.values("X-Forwarded-For")
        if !forwardedFor.isEmpty {
            let hops = forwardedFor.joined(separator: ",").split(separator: ",").map { Self.node(String($0).trimmingASCIIWhitespace()) }
            guard let client = clientHop(hops) else { return nil }
            let proto = headers.values("X-Forwarded-Proto").joined(separator: ",").split(separator: ",").last
                .flatMap { Self.scheme(String($0).trimmingASCIIWhitespace()) }
            return Forwarding(client: client.text, scheme: proto)
        }
        let forwarded = headers.values("Forwarded")
        guard !forwarded.isEmpty else { return nil }
        let elements = Self.elements(forwarded.joined(separator: ","))
        guard let index = clientIndex(elements.map { $0.for.flatMap(Self.node) }), let client = elements[index].for.flatMap(Self.node)
        else {
            return nil
        }
        return Forwarding(client: client.text, scheme: elements[index].proto.flatMap(Self.scheme))
    }

    /// The address of the right-most hop not trusted (the left-most when all are), nil when that hop is no address.
    private func clientHop(_ hops: [IPAddress?]) -> IPAddress? {
        clientIndex(hops).flatMap { hops[$0] }
    }

    private func clientIndex(_ hops: [IPAddress?]) -> Int? {
        guard !hops.isEmpty else { return nil }
        for index in hops.indices.reversed() {
            guard let hop = hops[index] else { return nil }
            if !contains(hop) { return index }
        }
        return hops.startIndex
    }

    /// A node as proxies write it: `192.0.2.7`, `192.0.2.7:4711`, `2001:db8::7`, `[2001:db8::7]:4711`,
    /// quoted or not; nil for `unknown`, obfuscated names and anything else.
    static func node(_ text: String) -> IPAddress? {
        var text = Substring(text)
        if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
        if text.first == "[" {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.first == ":" && rest.dropFirst().allSatisfy(\.isASCIIDigit)) else { return nil }
            return IPAddress(String(text[text.index(after: text.startIndex)..<close]))
        }
        if let colon = text.firstIndex(of: ":"), text.lastIndex(of: ":") == colon { // IPv4 with a port
            guard text[text.index(after: colon)...].allSatisfy(\.isASCIIDigit) else { return nil }
            text = text[..<colon]
        }
        return IPAddress(String(text))
    }

    /// `http` or `https` in any case; nil for anything else.
    static func scheme(_ text: String) -> String? {
        var text = Substring(text)
        if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
        switch text.lowercased() {
        case "https": return "https"
        case "http": return "http"
        default: return nil
        }
    }

    /// The `for` and `proto` parameters of each element of a `Forwarded` value (`for=a;proto=https, for=b`).
    /// Quoted strings may hold `,` and `;` (an IPv6 node with a port is quoted).
    static func elements(_ value: String) -> [(for: String?, proto: String?)] {
        var elements: [(for: String?, proto: String?)] = []
        var current: (for: String?, proto: String?) = (nil, nil)
        var pair = ""
        var quoted = false
        func endPair() {
            let text = pair.trimmingASCIIWhitespace()
            pair = ""
            guard let equals = text.firstIndex(of: "=") else { return }
            let name = text[..<equals].lowercased()
            let value = String(text[text.index(after: equals)...])
            if name == "for" { current.for = value } else if name == "proto" { current.proto = value }
        }
        for character in value {
            if character == "\"" { quoted.toggle() }
            if !quoted && (character == ";" || character == ",") {
                endPair()
                if character == "," {
                    elements.append(current)
                    current = (nil, nil)
                }
                continue
            }
            pair.append(character)
        }
        endPair()
        elements.append(current)
        return elements
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
