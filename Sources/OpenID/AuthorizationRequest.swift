/// One sign-in's secrets, made when it starts and kept server-side until its callback (OpenID Connect Core
/// §3.1.2.1, RFC 7636): `state` ties the callback to the browser that started it, `nonce` ties the ID token to
/// it, and the PKCE `codeVerifier` (whose S256 challenge goes in the URL) proves the code is redeemed by whoever
/// asked for it. Each is 32 bytes from libcrypto's CSPRNG, base64url (43 characters, as RFC 7636 §4.1 asks).
public struct AuthorizationRequest: Sendable {
    public let state: String
    public let nonce: String
    public let codeVerifier: String

    public init(state: String, nonce: String, codeVerifier: String) {
        self.state = state
        self.nonce = nonce
        self.codeVerifier = codeVerifier
    }

    /// A new request with fresh random values.
    public static func random() -> AuthorizationRequest {
        AuthorizationRequest(
            state: Base64URL.encode(Digest.random(32)), nonce: Base64URL.encode(Digest.random(32)),
            codeVerifier: Base64URL.encode(Digest.random(32)))
    }

    /// `BASE64URL(SHA256(code_verifier))` (RFC 7636 §4.2, method S256).
    public var codeChallenge: String { Self.challenge(codeVerifier) }

    /// The S256 challenge of `verifier`.
    public static func challenge(_ verifier: String) -> String {
        Base64URL.encode(Digest.sha256(Array(verifier.utf8)))
    }

    /// The provider's authorization URL the browser is sent to: the code flow with PKCE S256, `state` and `nonce`.
    public func url(endpoint: String, clientID: String, redirectURI: String, scopes: [String] = ["openid", "email", "profile"]) -> String {
        let query = FormEncoding.encode([
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI), ("scope", scopes.joined(separator: " ")),
            ("state", state), ("nonce", nonce), ("code_challenge", codeChallenge), ("code_challenge_method", "S256"),
        ])
        return endpoint + (endpoint.contains("?") ? "&" : "?") + query
    }
}
