import ByteText

/// A SHA-256 signing-certificate fingerprint as assetlinks.json writes it: 32 upper-case hex bytes separated by
/// colons, `14:6D:E9:…:E5` (G1, G2). Lower-case or colon-less forms are rejected (docs/aasa-semantics.md §10).
public struct CertificateFingerprint: Sendable, Hashable, CustomStringConvertible {
    /// The 32 bytes.
    public let bytes: [UInt8]

    /// Validates a fingerprint in the exact assetlinks form.
    /// - Parameter text: e.g. `14:6D:E9:83:…` (95 characters).
    /// - Throws: `LinkKitError` `.invalidFingerprint`, saying whether it was lower-case, colon-less or the wrong
    /// length.
    public init(_ text: String) throws(LinkKitError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let hexOnly = text.utf8.allSatisfy { Hex.value($0) != nil }
        if parts.count == 1, hexOnly, text.utf8.count == 64 {
            throw LinkKitError(
                .invalidFingerprint,
                "fingerprint '\(text)' has no colons: write it as 32 upper-case hex bytes separated by ':' (as keytool prints it)")
        }
        guard parts.count == 32, parts.allSatisfy({ $0.utf8.count == 2 && $0.utf8.allSatisfy { Hex.value($0) != nil } }) else {
            throw LinkKitError(
                .invalidFingerprint, "fingerprint '\(text)' must be 32 hex bytes separated by ':', like 14:6D:E9:…(95 characters)")
        }
        guard !text.contains(where: { $0.isLowercase }) else {
            throw LinkKitError(.invalidFingerprint, "fingerprint '\(text)' is lower-case: Android expects upper-case hex")
        }
        bytes = parts.map { Hex.value($0.utf8.first!)! << 4 | Hex.value($0.utf8.last!)! }
    }

    /// Accepts any common spelling (lower-case, no colons, spaces) and returns the canonical form, for APIs that
    /// want to be forgiving on input and exact on output.
    /// - Parameter text: a fingerprint in any spelling.
    /// - Throws: `LinkKitError` `.invalidFingerprint` when it is not 32 hex bytes.
    public init(normalizing text: String) throws(LinkKitError) {
        let hex = text.uppercased().filter { $0 != ":" && $0 != " " }
        guard hex.utf8.count == 64, hex.utf8.allSatisfy({ Hex.value($0) != nil }) else {
            throw LinkKitError(.invalidFingerprint, "fingerprint '\(text)' is not 32 hex bytes (64 hex digits)")
        }
        var pairs: [String] = []
        var rest = Substring(hex)
        while !rest.isEmpty { pairs.append(String(rest.prefix(2))); rest = rest.dropFirst(2) }
        try self.init(pairs.joined(separator: ":"))
    }

    /// The canonical text: upper-case hex bytes separated by `:`.
    public var description: String {
        let hex = Array("0123456789ABCDEF")
        return bytes.map { String([hex[Int($0 >> 4)], hex[Int($0 & 0xF)]]) }.joined(separator: ":")
    }
}
