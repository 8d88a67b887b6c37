import CCrypto
import Foundation

/// The secret form of an API key: `lk_<key id, 32 hex>_<secret, 43 base64url>`.
///
/// The id part finds the row; the secret part is hashed (SHA-256) and compared with the stored hash in
/// constant time. Only the hash is stored, so a database leak does not leak usable keys.
public struct APIKeySecret: Sendable, Equatable, CustomStringConvertible {
    public let keyID: UUID
    /// The random part; never logged.
    let secret: String

    /// A new key with 32 random bytes from OpenSSL's CSPRNG.
    public static func generate(keyID: UUID = UUID()) -> APIKeySecret {
        var bytes = [UInt8](repeating: 0, count: 32)
        // RAND_bytes(3): "returns 1 on success"; failure means the CSPRNG is not seeded, which we cannot recover from.
        precondition(RAND_bytes(&bytes, Int32(bytes.count)) == 1, "RAND_bytes failed")
        let secret = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return APIKeySecret(keyID: keyID, secret: secret)
    }

    /// Parses a presented key; nil when it does not have the key shape.
    public init?(parsing text: String) {
        let parts = text.split(separator: "_", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "lk", parts[1].count == 32, parts[2].count == 43,
              parts[2].utf8.allSatisfy({ Self.isBase64URL($0) }),
              let id = Self.uuid(fromHex: parts[1])
        else { return nil }
        self.keyID = id
        self.secret = String(parts[2])
    }

    private init(keyID: UUID, secret: String) {
        self.keyID = keyID
        self.secret = secret
    }

    /// The whole key, shown to the user once.
    public var token: String { "lk_\(Self.hex(keyID))_\(secret)" }

    /// What listings show to tell keys apart: `lk_` and the first 8 characters of the id.
    public var prefix: String { "lk_" + Self.hex(keyID).prefix(8) }

    /// SHA-256 of the whole token: what is stored.
    public var hash: [UInt8] { SHA256.digest(Array(token.utf8)) }

    /// Whether `storedHash` is this key's hash, compared in constant time (CRYPTO_memcmp).
    public func matches(storedHash: [UInt8]) -> Bool {
        let mine = hash
        guard storedHash.count == mine.count else { return false }
        // CRYPTO_memcmp(3): "the time taken is independent of the contents of the memory regions".
        return CRYPTO_memcmp(mine, storedHash, mine.count) == 0
    }

    /// Never prints the secret.
    public var description: String { "APIKeySecret(\(prefix)…)" }

    private static func hex(_ id: UUID) -> String {
        id.uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    private static func uuid(fromHex hex: Substring) -> UUID? {
        guard hex.utf8.allSatisfy({ $0.isHexDigit }) else { return nil }
        let h = Array(hex)
        let text = String(h[0..<8]) + "-" + String(h[8..<12]) + "-" + String(h[12..<16]) + "-" + String(h[16..<20]) + "-" + String(h[20..<32])
        return UUID(uuidString: text)
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
