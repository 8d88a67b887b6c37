import HTTPServer

/// What the codegen endpoints answer: a generated file with a strong ETag (no cache keeps it, `NoStoreMiddleware`:
/// a build script sends the tag back itself), or 304 when `If-None-Match` names the tag (weak comparison, RFC 9110
/// §13.1.2) or is `*`.
enum GeneratedFile {
    static func response(_ request: Request, etag: String, contentType: String, body: [UInt8], fileName: String? = nil) -> Response {
        var headers: HTTPHeaders = ["ETag": etag]
        if IfNoneMatch.matches(request.headers["If-None-Match"], etag) {
            return Response(status: 304, headers: headers)
        }
        headers.add("Content-Type", contentType)
        if let fileName { headers.add("Content-Disposition", "inline; filename=\"\(fileName)\"") }
        return Response(status: 200, headers: headers, body: body)
    }
}
