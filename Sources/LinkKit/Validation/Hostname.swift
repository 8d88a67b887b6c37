import Foundation

/// A link domain host name, normalised: lower-case, no trailing dot, internationalised names in punycode
/// (`bücher.example` → `xn--bcher-kva.example`), optionally the wildcard form `*.example.com` (A11).
///
/// Ports, paths, schemes and IP addresses are rejected: an associated-domains entitlement names a host only (A7, A10).
public struct Hostname: Sendable, Hashable, CustomStringConvertible {
    /// The normalised name, including a leading `*.` for a wildcard.
    public let rawValue: String

    /// Whether this is the wildcard form `*.example.com` (subdomains, not `example.com` itself).
    public var isWildcard: Bool { rawValue.hasPrefix("*.") }

    /// The host that serves the file: for `*.example.com` it is `example.com` (A10, F2), otherwise the name itself.
    public var servingHost: String { Self.servingHost(of: rawValue) }

    /// `servingHost` of a name that is already normalised (a stored domain's hostname).
    public static func servingHost(of normalised: String) -> String {
        normalised.hasPrefix("*.") ? String(normalised.dropFirst(2)) : normalised
    }

    /// Validates and normalises a host name.
    /// - Parameter text: e.g. `Example.COM.`, `bücher.example`, `*.example.com`.
    /// - Throws: `LinkKitError` `.invalidHostname` naming the problem (port, path, IP address, label or total length,
    ///   bad character, single label).
    public init(_ text: String) throws(LinkKitError) {
        func fail(_ why: String) -> LinkKitError { LinkKitError(.invalidHostname, "host name '\(text)' \(why)") }
        if let name = Self.plainName(text) {
            rawValue = name
            return
        }
        // Text of ASCII letters, digits, '-' and '.' only (nearly every name: a bulk request checks thousands)
        // cannot fail the checks for spaces, schemes, paths, ports and wildcards, which search the text through
        // Foundation: they are skipped.
        let plain = text.utf8.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
                || byte == 0x2E
        }
        var name = text
        var wildcard = false
        if !plain {
            name = text.trimmingCharacters(in: .whitespaces)
            if name.contains("://") { throw fail("must be a host only, without a scheme such as https://") }
            if name.contains("/") || name.contains("?") || name.contains("#") { throw fail("must be a host only, without a path") }
            if name.contains("[") || name.filter({ $0 == ":" }).count > 1 { throw fail("is an IP address: link domains must be names") }
            if name.contains(":") { throw fail("must not have a port (associated domains cannot use one)") }
            if name.contains("@") { throw fail("must not contain '@'") }
            if name.hasPrefix("*.") {
                wildcard = true
                name.removeFirst(2)
            }
        }
        if name.hasSuffix(".") { name.removeLast() }
        if name.isEmpty { throw fail("is empty") }
        if !plain && name.contains("*") { throw fail("may only use '*' as a whole first label, as in *.example.com") }
        if !name.allSatisfy(\.isASCII) {
            // Foundation's URL applies IDNA (UTS #46) to the host on Linux and Darwin alike.
            guard let ascii = URL(string: "https://\(name)/")?.host, ascii.allSatisfy(\.isASCII) else {
                throw fail("is not a valid internationalised domain name")
            }
            name = ascii
        }
        name = name.lowercased()
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        if labels.contains(where: \.isEmpty) { throw fail("has an empty label (two dots in a row)") }
        if labels.count < 2 { throw fail("must be a fully qualified domain name such as example.com") }
        if labels.allSatisfy({ $0.allSatisfy(\.isNumber) }) { throw fail("is an IP address: link domains must be names") }
        for label in labels {
            if label.utf8.count > 63 { throw fail("has a label longer than 63 characters") }
            if !label.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) {
                throw fail("has a label '\(label)' with characters other than letters, digits and '-'")
            }
            if label.hasPrefix("-") || label.hasSuffix("-") { throw fail("has a label '\(label)' that starts or ends with '-'") }
        }
        if labels.last!.allSatisfy(\.isNumber) { throw fail("ends in a numeric label, which no top-level domain is") }
        if name.utf8.count > 253 { throw fail("is longer than 253 characters") }
        rawValue = wildcard ? "*." + name : name
    }

    /// `text` normalised, when it is a valid name of ASCII letters, digits, '-' and '.' (nearly every name: a bulk
    /// request checks thousands), checked byte by byte; nil for any other text, which `init` checks in full and
    /// refuses with its reason. Accepts exactly the names of that alphabet that the full checks accept.
    private static func plainName(_ text: String) -> String? {
        var bytes = Array(text.utf8)
        if bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
        guard !bytes.isEmpty, bytes.count <= 253 else { return nil }
        var labels = 0, start = 0, digitsOnly = true
        for index in 0...bytes.count {
            if index == bytes.count || bytes[index] == UInt8(ascii: ".") {
                // A label: 1 to 63 characters, not starting or ending with '-'.
                guard index > start, index - start <= 63, bytes[start] != UInt8(ascii: "-"), bytes[index - 1] != UInt8(ascii: "-") else {
                    return nil
                }
                labels += 1
                // A last label of digits only is refused (no top-level domain is numeric), and with it an IP address.
                if index == bytes.count, digitsOnly { return nil }
                start = index + 1
                digitsOnly = true
                continue
            }
            switch bytes[index] {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes[index] += 0x20; digitsOnly = false
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "-"): digitsOnly = false
            case UInt8(ascii: "0")...UInt8(ascii: "9"): break
            default: return nil
            }
        }
        return labels >= 2 ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// The normalised name.
    public var description: String { rawValue }

    /// Whether the AASA file served for `domain` governs URLs on `host` (hosts compare case-insensitively). For a
    /// wildcard `*.example.com` the file is the one served by `example.com` (A10, F2): it governs `example.com` and
    /// every subdomain. (Whether an *app* claims the root is its entitlement's business, not the file's.)
    /// - Parameters:
    ///   - host: a URL's host (as `AASAURL.host` gives it).
    ///   - domain: the link domain the file belongs to.
    public static func host(_ host: String, isServedBy domain: String) -> Bool {
        let normalisedHost = (try? Hostname(host))?.rawValue ?? Self.simplified(host)
        guard let domain = try? Hostname(domain) else { return normalisedHost == Self.simplified(domain) }
        if domain.isWildcard {
            return normalisedHost == domain.servingHost || normalisedHost.hasSuffix("." + domain.servingHost)
        }
        return normalisedHost == domain.rawValue
    }

    private static func simplified(_ text: String) -> String {
        var lower = text.lowercased()
        if lower.hasSuffix(".") { lower.removeLast() }
        return lower
    }
}
