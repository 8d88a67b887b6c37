import CCrypto
import Foundation

/// A subscription's signing key and the Standard Webhooks signature it makes (docs/WEBHOOKS.md, "Signatures";
/// https://www.standardwebhooks.com): a delivery carries `webhook-id`, `webhook-timestamp` (Unix seconds) and
/// `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed by the bytes behind `whsec_`, so
/// receivers verify it with any of the specification's libraries. HMAC is libcrypto's (never hand-written).
struct WebhookSignature: Sendable, Equatable {
    static let secretPrefix = "whsec_"
    /// The key sizes the specification allows (24 to 64 bytes); linkd makes 32-byte keys.
    static let keySizes = 24...64

    /// The HMAC key: the base64-decoded part of the secret after `whsec_`.
    let key: [UInt8]

    init?(key: [UInt8]) {
        guard Self.keySizes.contains(key.count) else { return nil }
        self.key = key
    }

    /// Reads a secret as written: `whsec_` and the standard base64 of 24 to 64 bytes (padding optional).
    init?(secret: String) {
        guard secret.hasPrefix(Self.secretPrefix) else { return nil }
        var encoded = String(secret.dropFirst(Self.secretPrefix.count))
        if encoded.count % 4 != 0 { encoded += String(repeating: "=", count: 4 - encoded.count % 4) }
        guard let decoded = Data(base64Encoded: encoded) else { return nil }
        self.init(key: Array(decoded))
    }

    /// A new key of 32 bytes from libcrypto's `RAND_bytes`.
    static func generate() -> WebhookSignature {
        var key = [UInt8](repeating: 0, count: 32)
        // RAND_bytes(3): 1 on success; failing means the CSPRNG is unusable, which we treat as fatal.
        precondition(RAND_bytes(&key, Int32(key.count)) == 1, "RAND_bytes failed")
        return WebhookSignature(key: key)!
    }

    /// The secret as answered once at creation: `whsec_` and the key in standard base64.
    var secret: String { Self.secretPrefix + Data(key).base64EncodedString() }

    /// The `webhook-signature` value for one delivery attempt: `v1,` and the base64 HMAC-SHA256 of
    /// `id.timestamp.body`.
    func signature(id: String, timestamp: Int64, body: [UInt8]) -> String {
        var content = Array("\(id).\(timestamp).".utf8)
        content.append(contentsOf: body)
        return "v1," + Data(Self.hmacSHA256(key: key, data: content)).base64EncodedString()
    }

    /// The three headers of a delivery, in the order the specification lists them.
    func headers(id: String, timestamp: Int64, body: [UInt8]) -> [(name: String, value: String)] {
        [
            ("webhook-id", id), ("webhook-timestamp", String(timestamp)),
            ("webhook-signature", signature(id: id, timestamp: timestamp, body: body)),
        ]
    }

    /// HMAC-SHA256 through OpenSSL 3's one-shot `EVP_Q_mac` (it fetches the algorithm on each call: a delivery
    /// signs once per HTTP request, so the fetch does not matter).
    static func hmacSHA256(key: [UInt8], data: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { output, count in
            var length = 0
            let result = key.withUnsafeBytes { keyBytes in
                data.withUnsafeBufferPointer { dataBytes in
                    EVP_Q_mac(
                        nil, "HMAC", nil, "SHA256", nil, keyBytes.baseAddress, keyBytes.count,
                        dataBytes.baseAddress, dataBytes.count, output.baseAddress, 32, &length)
                }
            }
            // EVP_Q_mac(3) returns the output pointer on success, NULL on failure (only allocation failure here).
            precondition(result != nil && length == 32, "EVP_Q_mac(HMAC-SHA256) failed")
            count = 32
        }
    }
}
