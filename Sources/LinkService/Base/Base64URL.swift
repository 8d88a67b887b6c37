import CCrypto
import Foundation

/// base64url without padding (RFC 4648 §5), the one spelling of the opaque texts linkd hands out: list cursors, and
/// the secret parts of API keys, session cookies, one-time links and invitations.
enum Base64URL {
    /// `bytes` in base64url, unpadded.
    static func encoded(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of an unpadded base64url text; nil when it is not one.
    static func decoded(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }

    /// Whether `byte` is of base64url's alphabet (letters, digits, `-` and `_`).
    static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// The characters of a `randomSecret()`.
    static let secretLength = 43

    /// A new secret: 32 bytes from OpenSSL's CSPRNG, encoded (43 characters).
    static func randomSecret() -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        // RAND_bytes(3): "returns 1 on success"; failure means the CSPRNG is not seeded, which we cannot recover from.
        precondition(RAND_bytes(&bytes, Int32(bytes.count)) == 1, "RAND_bytes failed")
        return encoded(bytes)
    }
}
