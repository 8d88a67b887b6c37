/// The JWS algorithms an ID token may be signed with (RFC 7518 §3.1): the two every provider offers. `none`, the
/// HMAC family (whose key would be the client secret) and every other name are refused.
public enum SigningAlgorithm: String, Sendable, CaseIterable {
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = "RS256"
    /// ECDSA on P-256 with SHA-256; the signature is `r || s`, 32 bytes each (RFC 7518 §3.4).
    case es256 = "ES256"
}
