import Foundation
import HTTPServer

/// What the codegen endpoints answer: a generated file with a strong ETag and `Cache-Control: no-cache` (clients
/// revalidate), or 304 when `If-None-Match` names the tag (weak comparison, RFC 9110 §13.1.2) or is `*`.
enum GeneratedFile {
    /// The strong ETag of `bytes`: the first 128 bits of their SHA-256.
    static func tag(_ bytes: some Collection<UInt8>) -> String {
        "\"" + SHA256.hex(bytes).prefix(32) + "\""
    }

    static func response(_ request: Request, etag: String, contentType: String, body: [UInt8], fileName: String? = nil) -> Response {
        var headers: HTTPHeaders = ["ETag": etag, "Cache-Control": "no-cache"]
        if let tags = request.headers["If-None-Match"], tags.split(separator: ",").contains(where: { tag in
            let tag = tag.trimmingCharacters(in: .whitespaces)
            return tag == etag || tag == "W/" + etag || tag == "*"
        }) {
            return Response(status: 304, headers: headers)
        }
        headers.add("Content-Type", contentType)
        if let fileName { headers.add("Content-Disposition", "inline; filename=\"\(fileName)\"") }
        return Response(status: 200, headers: headers, body: body)
    }
}
