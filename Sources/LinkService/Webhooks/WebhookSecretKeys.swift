import CCrypto
import Foundation

/// The keys that seal subscriptions' signing secrets at rest (docs/WEBHOOKS.md, "Secrets"): AES-256-GCM from
/// libcrypto, each key named by an id stored beside what it sealed (`webhooks.secret_key_id`), so keys rotate: the
/// first key seals, every key unseals what it sealed. The sealed form is the 12-byte nonce, the ciphertext and the
/// 16-byte tag; the subscription's id is the additional data, so a sealed secret copied to another row does not open.
public struct WebhookSecretKeys: Sendable {
    public struct Key: Sendable, Equatable {
        public let id: String
        public let bytes: [UInt8]

        /// `id:base64` of 32 bytes; the id is 1 to 64 letters, digits, `.`, `_` or `-`.
        public init?(_ text: String) {
            guard let colon = text.firstIndex(of: ":") else { return nil }
            let id = String(text[..<colon])
            guard let data = Data(base64Encoded: String(text[text.index(after: colon)...])), data.count == 32 else { return nil }
            self.init(id: id, bytes: Array(data))
        }

        public init?(id: String, bytes: [UInt8]) {
            guard (1...64).contains(id.utf8.count), bytes.count == 32,
                id.utf8.allSatisfy({
                    $0.isASCIIAlphanumeric || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
                })
            else { return nil }
            self.id = id
            self.bytes = bytes
        }

        /// A new random key named `id` (libcrypto's `RAND_bytes`).
        public static func generate(id: String) -> Key {
            var bytes = [UInt8](repeating: 0, count: 32)
            precondition(RAND_bytes(&bytes, 32) == 1, "RAND_bytes failed")
            return Key(id: id, bytes: bytes)!
        }

        /// `id:base64`, as the option and the key file hold it.
        public var text: String { id + ":" + Data(bytes).base64EncodedString() }
    }

    /// The sealing key first, then the keys that only unseal.
    public let keys: [Key]

    public init?(_ keys: [Key]) {
        guard !keys.isEmpty, Set(keys.map(\.id)).count == keys.count else { return nil }
        self.keys = keys
    }

    /// The id of the key that seals.
    var sealingID: String { keys[0].id }

    /// `secret` sealed with the first key for the subscription `owner`.
    func seal(_ secret: [UInt8], for owner: UUID) -> [UInt8] {
        var nonce = [UInt8](repeating: 0, count: Self.nonceSize)
        precondition(RAND_bytes(&nonce, Int32(Self.nonceSize)) == 1, "RAND_bytes failed")
        guard let sealed = Self.crypt(encrypt: true, key: keys[0].bytes, nonce: nonce, input: secret, tag: nil, owner: owner) else {
            preconditionFailure("AES-256-GCM encryption failed")
        }
        return nonce + sealed.output + sealed.tag
    }

    /// The secret `sealed` by the key `keyID` for `owner`; nil when that key is not configured here or the sealed
    /// bytes do not open (changed, or sealed for another subscription).
    func unseal(_ sealed: [UInt8], keyID: String, for owner: UUID) -> [UInt8]? {
        guard let key = keys.first(where: { $0.id == keyID }), sealed.count > Self.nonceSize + Self.tagSize else { return nil }
        let nonce = Array(sealed.prefix(Self.nonceSize))
        let tag = Array(sealed.suffix(Self.tagSize))
        let body = Array(sealed[Self.nonceSize..<(sealed.count - Self.tagSize)])
        return Self.crypt(encrypt: false, key: key.bytes, nonce: nonce, input: body, tag: tag, owner: owner)?.output
    }

    static let nonceSize = 12
    static let tagSize = 16

    /// One AES-256-GCM pass through libcrypto's EVP interface: encrypting answers the ciphertext and its tag;
    /// decrypting checks `tag` and answers nil when it does not match.
    private static func crypt(
        encrypt: Bool, key: [UInt8], nonce: [UInt8], input: [UInt8], tag: [UInt8]?, owner: UUID
    )
        -> (output: [UInt8], tag: [UInt8])?
    {
        guard let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        let aad = Array(owner.canonicalText.utf8)
        var output = [UInt8](repeating: 0, count: input.count + 16)
        var length: Int32 = 0
        var total: Int32 = 0
        let initialised =
            encrypt
            ? EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce)
            : EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce)
        guard initialised == 1 else { return nil }
        let update = encrypt ? EVP_EncryptUpdate : EVP_DecryptUpdate
        guard update(context, nil, &length, aad, Int32(aad.count)) == 1 else { return nil }
        guard update(context, &output, &length, input, Int32(input.count)) == 1 else { return nil }
        total = length
        var tagBytes = tag ?? [UInt8](repeating: 0, count: tagSize)
        if !encrypt {
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tagSize), &tagBytes) == 1 else { return nil }
        }
        let finished = output.withUnsafeMutableBufferPointer { buffer in
            encrypt
                ? EVP_EncryptFinal_ex(context, buffer.baseAddress! + Int(total), &length)
                : EVP_DecryptFinal_ex(context, buffer.baseAddress! + Int(total), &length)
        }
        guard finished == 1 else { return nil }
        total += length
        if encrypt {
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tagSize), &tagBytes) == 1 else { return nil }
        }
        return (Array(output.prefix(Int(total))), tagBytes)
    }
}

private extension UInt8 {
    var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
    }
}
