/// Why an OpenID Connect step refused: a token that does not verify, a provider that answered wrongly or not at
/// all. `message` says what was wrong in words safe to log; it never holds a token, a code or a secret.
public struct OpenIDError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// Not a compact JWS of three base64url parts with JSON header and claims.
        case malformedToken
        /// `alg` is `none` or anything but RS256 and ES256, or the header is critical about an extension.
        case unsupportedAlgorithm
        /// No key of the set, even fetched again, has the token's `kid` (or, without one, fits its algorithm).
        case unknownKey
        /// The signature does not verify with the key.
        case badSignature
        /// `iss` is not the configured issuer.
        case wrongIssuer
        /// `aud` does not hold the client id, or `azp` names another party.
        case wrongAudience
        /// `exp` has passed (beyond the leeway).
        case expired
        /// `nbf` or `iat` is in the future (beyond the leeway).
        case notYetValid
        /// `nonce` is missing or is not the one this sign-in sent.
        case nonceMismatch
        /// A claim every ID token has (`sub`, `exp`, `iat`) is missing or of the wrong type.
        case missingClaim
        /// The discovery document is malformed, or names another issuer.
        case discovery
        /// The JWK set is malformed.
        case keySet
        /// The token endpoint refused the code or answered something else than tokens.
        case tokenRequest
        /// The provider could not be reached or answered with an error status.
        case unreachable
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "OpenIDError(\(code.rawValue): \(message))" }
}
