import LinkKit

/// Checks an ID token's signature and claims as OpenID Connect Core §3.1.3.7 says a client must: the key from the
/// provider's set, `iss` exactly the issuer, `aud` holding the client id (and `azp` the client id when there are
/// several audiences, or whenever present), `exp`, `nbf` and `iat` against the clock with `leeway`, and `nonce`
/// equal to the one the sign-in sent. No network: `OpenIDProvider` finds the keys.
public struct IDTokenVerifier: Sendable {
    /// The clock skew tolerated between linkd and the provider on `exp`, `nbf` and `iat`.
    public static let defaultLeeway: Double = 60

    public let issuer: String
    public let clientID: String
    public let leeway: Double

    public init(issuer: String, clientID: String, leeway: Double = Self.defaultLeeway) {
        self.issuer = issuer
        self.clientID = clientID
        self.leeway = leeway
    }

    /// The claims of `token`, signed by `key`, when every check passes at `now` (seconds since 1970).
    /// - Throws: `OpenIDError`: `.badSignature`, `.wrongIssuer`, `.wrongAudience`, `.expired`, `.notYetValid`,
    ///   `.nonceMismatch`, `.missingClaim`.
    public func verify(_ token: SignedToken, key: JSONWebKey, nonce: String, now: Double) throws(OpenIDError) -> IDTokenClaims {
        guard token.isSigned(by: key) else { throw OpenIDError(.badSignature, "the token's signature does not verify") }
        let claims = token.claims
        guard claims["iss"]?.stringValue == issuer else { throw OpenIDError(.wrongIssuer, "the token was issued by another issuer") }
        let audiences: [String]
        switch claims["aud"] {
        case .string(let value)?: audiences = [value]
        case .array(let values)?: audiences = values.compactMap(\.stringValue)
        default: throw OpenIDError(.wrongAudience, "the token has no aud")
        }
        guard audiences.contains(clientID) else { throw OpenIDError(.wrongAudience, "the token is not for this client") }
        let authorizedParty = claims["azp"]?.stringValue
        if audiences.count > 1 || claims["azp"] != nil {
            guard authorizedParty == clientID else { throw OpenIDError(.wrongAudience, "the token's azp is not this client") }
        }
        guard let expires = Self.seconds(claims["exp"]) else { throw OpenIDError(.missingClaim, "the token has no numeric exp") }
        guard now < expires + leeway else { throw OpenIDError(.expired, "the token has expired") }
        guard let issuedAt = Self.seconds(claims["iat"]) else { throw OpenIDError(.missingClaim, "the token has no numeric iat") }
        guard issuedAt <= now + leeway else { throw OpenIDError(.notYetValid, "the token was issued in the future") }
        if let notBefore = claims["nbf"] {
            guard let notBefore = Self.seconds(notBefore) else { throw OpenIDError(.missingClaim, "the token's nbf is not a number") }
            guard notBefore <= now + leeway else { throw OpenIDError(.notYetValid, "the token is not valid yet") }
        }
        guard !nonce.isEmpty, let sent = claims["nonce"]?.stringValue, Digest.constantTimeEqual(sent, nonce) else {
            throw OpenIDError(.nonceMismatch, "the token's nonce is not this sign-in's")
        }
        return try IDTokenClaims(claims)
    }

    /// A NumericDate (RFC 7519 §2): a JSON number of seconds since 1970.
    private static func seconds(_ value: JSONValue?) -> Double? {
        guard case .number(let text)? = value, let seconds = Double(text), seconds.isFinite else { return nil }
        return seconds
    }
}
