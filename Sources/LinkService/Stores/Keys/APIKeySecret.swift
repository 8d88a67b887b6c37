import ByteText
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
        APIKeySecret(keyID: keyID, secret: Base64URL.randomSecret())
    }

    /// Parses a presented key; nil when it does not have the key shape.
    ///
    /// Byte by byte (this runs on every authenticated request): `lk_`, 32 lower-case hex digits, `_`, 43 base64url
    /// characters (which may include `_`): exactly 79 ASCII bytes. A key is an exact string: the id in upper case
    /// names the same row, but it is not the key that was issued, so it is refused.
    public init?(parsing text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse($0) }) else { return nil }
        (self.keyID, self.secret) = parsed
    }

    /// The key of an `Authorization` header value `Bearer <key>`; nil for any other value. The scheme is compared
    /// case-insensitively and separated from the key by one or more spaces (RFC 9110 §11.4: `auth-scheme
    /// [ 1*SP token68 ]`; RFC 6750 §2.1); spaces or tabs around the whole value are ignored (OWS).
    /// On the header's bytes: no split, lower-cased or trimmed copies.
    public init?(authorization header: String) {
        var header = header
        let parsed: (UUID, String)? = header.withUTF8 { bytes in
            let value = ASCII.trimmingBlanks(bytes)
            var start = value.lowerBound
            let end = value.upperBound
            let scheme = "bearer".utf8
            guard end - start > scheme.count,
                ASCII.equalIgnoringCase(bytes[start..<start + scheme.count], scheme),
                bytes[start + scheme.count] == UInt8(ascii: " ")
            else { return nil }
            start += scheme.count
            while start < end, bytes[start] == UInt8(ascii: " ") { start += 1 }
            return Self.parse(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        }
        guard let parsed else { return nil }
        (self.keyID, self.secret) = parsed
    }

    /// The id and secret of a key's 79 bytes; nil when they do not have the key shape.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (UUID, String)? {
        guard bytes.count == 79, bytes[0] == UInt8(ascii: "l"), bytes[1] == UInt8(ascii: "k"),
            bytes[2] == UInt8(ascii: "_"), bytes[35] == UInt8(ascii: "_"),
            bytes[36...].allSatisfy({ Base64URL.isAlphabet($0) })
        else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let valid = withUnsafeMutableBytes(of: &uuid) { raw -> Bool in
            for index in 0..<16 {
                guard let high = lowerHex(bytes[3 + 2 * index]), let low = lowerHex(bytes[4 + 2 * index]) else { return false }
                raw[index] = high << 4 | low
            }
            return true
        }
        guard valid else { return nil }
        return (UUID(uuid: uuid), String(decoding: UnsafeBufferPointer(rebasing: bytes[36...]), as: UTF8.self))
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
    public var hash: [UInt8] {
        // The token's bytes assembled directly (this runs on every authenticated request).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(79)
        bytes.append(contentsOf: "lk_".utf8)
        withUnsafeBytes(of: keyID.uuid) { Hex.append($0, to: &bytes) }
        bytes.append(UInt8(ascii: "_"))
        bytes.append(contentsOf: secret.utf8)
        return SHA256.digest(bytes)
    }

    /// Whether `storedHash` is this key's hash, compared in constant time (CRYPTO_memcmp).
    public func matches(storedHash: [UInt8]) -> Bool {
        let mine = hash
        guard storedHash.count == mine.count else { return false }
        // CRYPTO_memcmp(3): "the time taken is independent of the contents of the memory regions".
        return CRYPTO_memcmp(mine, storedHash, mine.count) == 0
    }

    /// Whether `secret` holds this key's secret bytes (the secret of a key verified before), compared in constant time.
    func hasSecret(_ secret: [UInt8]) -> Bool {
        var mine = self.secret
        return mine.withUTF8 { mine in
            mine.count == secret.count && CRYPTO_memcmp(mine.baseAddress, secret, mine.count) == 0
        }
    }

    /// Never prints the secret.
    public var description: String { "APIKeySecret(\(prefix)…)" }

    /// The id as 32 lower-case hex digits, no dashes.
    private static func hex(_ id: UUID) -> String {
        withUnsafeBytes(of: id.uuid) { Hex.encode($0) }
    }

    /// The value of a lower-case hex digit; nil for any other byte (`A`-`F` included: `token` writes lower case).
    private static func lowerHex(_ byte: UInt8) -> UInt8? {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F") ? nil : Hex.value(byte)
    }
}
