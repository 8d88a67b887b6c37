import ByteText
import Foundation
import HTTPServer

/// Strong entity tags: for versioned resources (`"v3"`) with the `If-Match` check that makes concurrent edits
/// safe (the update itself also compares the version, so exactly one of two racing writers wins), and for bytes
/// served as they are (derived from the bytes, so every node agrees).
enum ETag {
    static func header(version: Int) -> String { "\"v\(version)\"" }

    /// `"<first 32 hex digits of SHA-256 of bytes>"`: the first 128 bits of the digest, quoted.
    static func strong(of bytes: some Collection<UInt8>) -> String {
        "\"" + Hex.encode(SHA256.digest(bytes).prefix(16)) + "\""
    }

    /// The version `If-Match` demands, nil when the header is absent or `*`.
    /// - Throws: `ServiceError.preconditionFailed` when the header is not one of our tags (it can never match).
    static func expectedVersion(_ request: Request) throws(ServiceError) -> Int? {
        guard let header = request.headers["If-Match"]?.trimmingCharacters(in: .whitespaces), header != "*" else { return nil }
        var tag = Substring(header)
        if tag.hasPrefix("W/") { throw .preconditionFailed } // If-Match uses strong comparison (RFC 9110 §13.1.1)
        guard tag.hasPrefix("\"v"), tag.hasSuffix("\""), tag.count > 3 else { throw .preconditionFailed }
        tag = tag.dropFirst(2).dropLast()
        guard let version = Int(tag) else { throw .preconditionFailed }
        return version
    }

    /// Throws 412 unless `If-Match` is absent or names `current`.
    static func check(_ request: Request, current: Int) throws(ServiceError) {
        if let expected = try expectedVersion(request), expected != current { throw .preconditionFailed }
    }
}
