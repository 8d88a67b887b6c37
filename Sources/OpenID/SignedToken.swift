import LinkKit

/// A JWS in compact serialization (RFC 7515 §7.1) taken apart, not yet verified: its header's `alg` and `kid`,
/// the claims, and what the signature covers.
public struct SignedToken: Sendable {
    /// The longest token read: ID tokens are a few hundred bytes to a few kilobytes.
    public static let maxLength = 16 * 1024

    public let algorithm: SigningAlgorithm
    public let keyID: String?
    public let claims: JSONValue
    /// `header.payload`, as ASCII: the signed bytes.
    let signingInput: [UInt8]
    let signature: [UInt8]

    /// `text` taken apart.
    /// - Throws: `OpenIDError`: `.malformedToken` for anything but three base64url parts with JSON objects,
    ///   `.unsupportedAlgorithm` for `alg` `none` or any other than RS256 and ES256, or a `crit` header.
    public init(_ text: String) throws(OpenIDError) {
        guard text.utf8.count <= Self.maxLength else {
            throw OpenIDError(.malformedToken, "the token is longer than \(Self.maxLength) bytes")
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw OpenIDError(.malformedToken, "a token is three base64url parts joined by dots") }
        guard let headerBytes = Base64URL.decode(parts[0]), let header = try? JSONValue.parse(bytes: headerBytes),
            header.objectMembers != nil
        else {
            throw OpenIDError(.malformedToken, "the token's header is not a base64url JSON object")
        }
        guard let name = header["alg"]?.stringValue else { throw OpenIDError(.malformedToken, "the token's header has no alg") }
        guard let algorithm = SigningAlgorithm(rawValue: name) else {
            throw OpenIDError(.unsupportedAlgorithm, "the token is signed with \(name.prefix(20)); only RS256 and ES256 are accepted")
        }
        // RFC 7515 §4.1.11: a recipient that does not understand a critical extension must refuse the token.
        guard header["crit"] == nil else { throw OpenIDError(.unsupportedAlgorithm, "the token's header lists critical extensions") }
        if let kid = header["kid"], kid.stringValue == nil { throw OpenIDError(.malformedToken, "the token's kid is not a string") }
        guard let payload = Base64URL.decode(parts[1]), let claims = try? JSONValue.parse(bytes: payload),
            claims.objectMembers != nil
        else {
            throw OpenIDError(.malformedToken, "the token's claims are not a base64url JSON object")
        }
        guard let signature = Base64URL.decode(parts[2]), !signature.isEmpty else {
            throw OpenIDError(.malformedToken, "the token's signature is not base64url")
        }
        self.algorithm = algorithm
        keyID = header["kid"]?.stringValue
        self.claims = claims
        signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
        self.signature = signature
    }

    /// Whether `key` verifies the signature.
    public func isSigned(by key: JSONWebKey) -> Bool {
        key.verifies(signature, of: signingInput, by: algorithm)
    }
}
