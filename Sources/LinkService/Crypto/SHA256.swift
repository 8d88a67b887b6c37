import CCrypto

/// SHA-256 through OpenSSL's libcrypto (never hand-written).
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let input = Array(bytes)
        // EVP_Digest(3): "a wrapper around EVP_DigestInit_ex(), EVP_DigestUpdate() and EVP_DigestFinal_ex()";
        // returns 1 for success. It can only fail on allocation failure, which we treat as fatal.
        let ok = input.withUnsafeBytes { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                EVP_Digest(inputBuffer.baseAddress, inputBuffer.count, outputBuffer.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        precondition(ok == 1 && length == 32, "EVP_Digest(SHA-256) failed")
        return output
    }

    /// The digest as lower-case hex.
    public static func hex(_ bytes: some Collection<UInt8>) -> String {
        Hex.encode(digest(bytes))
    }

    /// The digest of a string's UTF-8 bytes as lower-case hex.
    public static func hex(_ string: String) -> String {
        hex(Array(string.utf8))
    }
}

/// Lower-case hexadecimal encoding.
public enum Hex {
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
