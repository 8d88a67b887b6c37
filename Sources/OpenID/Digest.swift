import CCrypto

/// SHA-256 and random bytes from libcrypto, what the sign-in's PKCE and its one-time values need.
enum Digest {
    /// SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        // EVP_Digest(3): "a wrapper around EVP_DigestInit_ex(), EVP_DigestUpdate() and EVP_DigestFinal_ex()".
        let ok = EVP_Digest(bytes, bytes.count, &output, &length, EVP_sha256(), nil)
        precondition(ok == 1 && length == 32, "EVP_Digest(SHA-256) failed")
        return output
    }

    /// `count` bytes from libcrypto's CSPRNG (`RAND_bytes`).
    static func random(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        precondition(RAND_bytes(&bytes, Int32(count)) == 1, "RAND_bytes failed")
        return bytes
    }

    /// Whether `a` equals `b`, in a time that depends on their lengths only (`CRYPTO_memcmp`).
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return x.isEmpty || CRYPTO_memcmp(x, y, x.count) == 0
    }
}
