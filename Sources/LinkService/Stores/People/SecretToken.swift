import CCrypto
import Foundation

/// A random bearer token of people's mechanisms (a session cookie, a one-time link, an invitation, a sign-in's
/// `state`): 32 bytes from OpenSSL's CSPRNG as 43 base64url characters. Only its SHA-256 is stored, so the
/// tables hold nothing that signs anyone in.
public struct SecretToken: Sendable, Equatable, CustomStringConvertible {
    /// The token as handed out; never logged.
    public let text: String

    /// A new random token.
    public static func generate() -> SecretToken {
        var bytes = [UInt8](repeating: 0, count: 32)
        precondition(RAND_bytes(&bytes, Int32(bytes.count)) == 1, "RAND_bytes failed")
        let text = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return SecretToken(text: text)
    }

    /// A presented token; nil unless it has the shape of one (43 base64url characters), so nothing else is hashed
    /// and looked up.
    public init?(presented text: Substring) {
        guard text.utf8.count == 43, text.utf8.allSatisfy(Self.isBase64URL) else { return nil }
        self.text = String(text)
    }

    private init(text: String) {
        self.text = text
    }

    /// SHA-256 of the token's text: what is stored and looked up.
    public var hash: [UInt8] { SHA256.digest(Array(text.utf8)) }

    public var description: String { "SecretToken(…)" }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
