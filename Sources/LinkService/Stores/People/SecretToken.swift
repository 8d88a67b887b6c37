import Foundation

/// A random bearer token of people's mechanisms (a session cookie, a one-time link, an invitation, a sign-in's
/// `state`): 32 bytes from OpenSSL's CSPRNG as 43 base64url characters. Only its SHA-256 is stored, so the
/// tables hold nothing that signs anyone in.
public struct SecretToken: Sendable, Equatable, CustomStringConvertible {
    /// The token as handed out; never logged.
    public let text: String

    /// A new random token.
    public static func generate() -> SecretToken {
        SecretToken(text: Base64URL.randomSecret())
    }

    /// A presented token; nil unless it has the shape of one (43 base64url characters), so nothing else is hashed
    /// and looked up.
    public init?(presented text: Substring) {
        guard text.utf8.count == Base64URL.secretLength, text.utf8.allSatisfy(Base64URL.isAlphabet) else { return nil }
        self.text = String(text)
    }

    private init(text: String) {
        self.text = text
    }

    /// SHA-256 of the token's text: what is stored and looked up.
    public var hash: [UInt8] { SHA256.digest(Array(text.utf8)) }

    public var description: String { "SecretToken(…)" }
}
