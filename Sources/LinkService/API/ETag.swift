import Foundation
import HTTPServer

/// Strong entity tags for versioned resources (`"v3"`) and the `If-Match` check that makes concurrent
/// edits safe: the update itself also compares the version, so exactly one of two racing writers wins.
enum ETag {
    static func header(version: Int) -> String { "\"v\(version)\"" }

    /// The version `If-Match` demands, nil when the header is absent or `*`.
    /// - Throws: `ServiceError.preconditionFailed` when the header is not one of our tags (it can never match).
    static func expectedVersion(_ request: Request) throws(ServiceError) -> Int? {
        guard let header = request.headers["If-Match"]?.trimmingCharacters(in: .whitespaces), header != "*" else { return nil }
        var tag = Substring(header)
        if tag.hasPrefix("W/") { throw .preconditionFailed }   // If-Match uses strong comparison (RFC 9110 §13.1.1)
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
