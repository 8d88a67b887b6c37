import ByteText
import CCrypto

/// SHA-256 through OpenSSL's libcrypto (never hand-written).
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        // Contiguous input (arrays, the usual case) is hashed in place; anything else is copied once.
        bytes.withContiguousStorageIfAvailable { digest(UnsafeRawBufferPointer($0)) } ?? Array(bytes).withUnsafeBytes { digest($0) }
    }

    private static func digest(_ input: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { output, count in
            var length: UInt32 = 0
            // EVP_Digest(3): "a wrapper around EVP_DigestInit_ex(), EVP_DigestUpdate() and EVP_DigestFinal_ex()";
            // returns 1 for success. It can only fail on allocation failure, which we treat as fatal.
            let ok = EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, algorithm, nil)
            precondition(ok == 1 && length == 32, "EVP_Digest(SHA-256) failed")
            count = 32
        }
    }

    /// SHA-256 fetched from the default provider once. `EVP_sha256()` is an implicit fetch, which OpenSSL 3 repeats
    /// on every `EVP_Digest` call (crypto(7), "Performance": explicit fetching is recommended where an algorithm is
    /// used repeatedly), and for a short digest the fetch is a large share of the work.
    /// A fetched `EVP_MD` is shared by all threads; it is never freed (one per process).
    nonisolated(unsafe) private static let algorithm: OpaquePointer? = {
        let fetched = EVP_MD_fetch(nil, "SHA256", nil)
        precondition(fetched != nil, "libcrypto has no SHA256")
        return fetched
    }()

    /// The digest as lower-case hex.
    public static func hex(_ bytes: some Collection<UInt8>) -> String {
        Hex.encode(digest(bytes))
    }

    /// The digest of a string's UTF-8 bytes as lower-case hex.
    public static func hex(_ string: String) -> String {
        hex(Array(string.utf8))
    }
}
