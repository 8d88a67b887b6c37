import CCrypto
import LinkKit

/// One public key of a provider's JWK set (RFC 7517), built into an OpenSSL `EVP_PKEY` from its JSON
/// parameters with `EVP_PKEY_fromdata`: an RSA key (`n`, `e`; at least 2048 bits) for RS256 or a P-256 key
/// (`x`, `y`; the point checked to be on the curve) for ES256.
///
/// `@unchecked Sendable`: owns its `EVP_PKEY *`, made once and only read afterwards (OpenSSL 3 keys may be used
/// by several threads at once for verification); freed in `deinit` only.
public final class JSONWebKey: @unchecked Sendable {
    /// `kid`, when the key has one.
    public let keyID: String?
    /// The algorithm the key verifies.
    public let algorithm: SigningAlgorithm
    private let key: OpaquePointer

    private init(keyID: String?, algorithm: SigningAlgorithm, key: OpaquePointer) {
        self.keyID = keyID
        self.algorithm = algorithm
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// The key `json` describes, or nil when it is not one linkd verifies with: another `kty` or curve, `use`
    /// other than `sig`, an `alg` other than RS256 or ES256.
    /// - Throws: `OpenIDError` (`.keySet`) when it is an RSA or P-256 signing key whose parameters are malformed.
    public static func read(_ json: JSONValue) throws(OpenIDError) -> JSONWebKey? {
        guard json.objectMembers != nil, let kty = json["kty"]?.stringValue else {
            throw OpenIDError(.keySet, "a key that is not an object with a kty")
        }
        if let use = json["use"], use.stringValue != "sig" { return nil }
        let keyID = json["kid"]?.stringValue
        let named = json["alg"].map { $0.stringValue.flatMap(SigningAlgorithm.init(rawValue:)) }
        switch kty {
        case "RSA":
            guard named == nil || named! == .rs256 else { return nil }
            guard let n = json["n"]?.stringValue.flatMap(Base64URL.decode), let e = json["e"]?.stringValue.flatMap(Base64URL.decode),
                !n.isEmpty, !e.isEmpty
            else {
                throw OpenIDError(.keySet, "an RSA key without base64url n and e")
            }
            let key = try rsaKey(modulus: n, exponent: e)
            guard EVP_PKEY_get_bits(key) >= 2048 else {
                EVP_PKEY_free(key)
                throw OpenIDError(.keySet, "an RSA key shorter than 2048 bits")
            }
            return JSONWebKey(keyID: keyID, algorithm: .rs256, key: key)
        case "EC":
            guard named == nil || named! == .es256, json["crv"]?.stringValue == "P-256" else { return nil }
            guard let x = json["x"]?.stringValue.flatMap(Base64URL.decode), let y = json["y"]?.stringValue.flatMap(Base64URL.decode),
                x.count == 32, y.count == 32
            else {
                throw OpenIDError(.keySet, "a P-256 key without 32-byte base64url x and y")
            }
            return JSONWebKey(keyID: keyID, algorithm: .es256, key: try p256Key(point: [0x04] + x + y))
        default:
            return nil
        }
    }

    /// Whether `signature` is this key's signature of `message` by `algorithm` (false for another algorithm than
    /// the key's).
    public func verifies(_ signature: [UInt8], of message: [UInt8], by algorithm: SigningAlgorithm) -> Bool {
        guard algorithm == self.algorithm else { return false }
        let encoded: [UInt8]
        switch algorithm {
        case .rs256: encoded = signature
        case .es256:
            guard signature.count == 64, let der = Self.derSignature(r: Array(signature[0..<32]), s: Array(signature[32...])) else {
                return false
            }
            encoded = der
        }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        // EVP_DigestVerifyInit(3): RSA keys verify PKCS #1 v1.5 padding unless told otherwise, as RS256 is.
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        // EVP_DigestVerify(3): "returns 1 for success; any other value indicates failure".
        return EVP_DigestVerify(context, encoded, encoded.count, message, message.count) == 1
    }

    /// JOSE's `r || s` as the DER `ECDSA-Sig-Value` OpenSSL verifies (RFC 7518 §3.4 against RFC 3279 §2.2.3).
    static func derSignature(r: [UInt8], s: [UInt8]) -> [UInt8]? {
        guard let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        guard let rNumber = BN_bin2bn(r, Int32(r.count), nil) else { return nil }
        guard let sNumber = BN_bin2bn(s, Int32(s.count), nil) else { BN_free(rNumber); return nil }
        // ECDSA_SIG_set0(3): the signature takes ownership of both numbers.
        guard ECDSA_SIG_set0(signature, rNumber, sNumber) == 1 else { BN_free(rNumber); BN_free(sNumber); return nil }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? der : nil
    }

    private static func rsaKey(modulus: [UInt8], exponent: [UInt8]) throws(OpenIDError) -> OpaquePointer {
        guard let builder = OSSL_PARAM_BLD_new() else { throw OpenIDError(.keySet, "OpenSSL could not build parameters") }
        defer { OSSL_PARAM_BLD_free(builder) }
        let n = BN_bin2bn(modulus, Int32(modulus.count), nil), e = BN_bin2bn(exponent, Int32(exponent.count), nil)
        defer { BN_free(n); BN_free(e) }
        // OSSL_PARAM_BLD_push_BN(3) keeps the key name and the number until the parameters are made: static names,
        // numbers freed after.
        guard n != nil, e != nil, OSSL_PARAM_BLD_push_BN(builder, cString("n"), n) == 1,
            OSSL_PARAM_BLD_push_BN(builder, cString("e"), e) == 1, let key = build("RSA", builder)
        else {
            throw OpenIDError(.keySet, "OpenSSL refused the RSA key's numbers")
        }
        return key
    }

    private static func p256Key(point: [UInt8]) throws(OpenIDError) -> OpaquePointer {
        guard let builder = OSSL_PARAM_BLD_new() else { throw OpenIDError(.keySet, "OpenSSL could not build parameters") }
        defer { OSSL_PARAM_BLD_free(builder) }
        // The builder keeps the point's address until the parameters are made (OSSL_PARAM_BLD_push_octet_string(3)):
        // both happen while the buffer is lent.
        let made = point.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            guard OSSL_PARAM_BLD_push_utf8_string(builder, cString("group"), cString("prime256v1"), 0) == 1,
                OSSL_PARAM_BLD_push_octet_string(builder, cString("pub"), buffer.baseAddress, buffer.count) == 1
            else { return nil }
            return build("EC", builder)
        }
        guard let key = made else { throw OpenIDError(.keySet, "OpenSSL refused the P-256 point") }
        // EVP_PKEY_public_check(3): the point is on the curve and not the point at infinity.
        let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil)
        defer { EVP_PKEY_CTX_free(context) }
        guard let context, EVP_PKEY_public_check(context) == 1 else {
            EVP_PKEY_free(key)
            throw OpenIDError(.keySet, "a P-256 key whose point is not on the curve")
        }
        return key
    }

    /// A static string's address, which outlives any builder.
    private static func cString(_ text: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// The public key of type `name` the builder's parameters describe (EVP_PKEY_fromdata(3)); nil when OpenSSL
    /// refuses them.
    private static func build(_ name: StaticString, _ builder: OpaquePointer) -> OpaquePointer? {
        guard let parameters = OSSL_PARAM_BLD_to_param(builder) else { return nil }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, cString(name), nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1, EVP_PKEY_fromdata(context, &key, ccrypto_public_key_selection(), parameters) == 1 else {
            return nil
        }
        return key
    }
}
