import Foundation
import HTTPServer

/// `/console/`: the web dashboard's static files (docs/CONSOLE.md), on every host that is not a link domain.
/// On a link domain `/console/…` is a link like any other, so those requests go to the click handler.
///
/// Each file answers with a strong ETag (304 for `If-None-Match`), `Cache-Control: no-cache` (revalidated on
/// every load, so an upgrade shows at once), gzip when the client accepts it, and a Content-Security-Policy
/// that allows only the console's own files: no inline script, no eval, no framing.
struct ConsoleHandlers: EndpointGroup {
    let files: ConsoleFiles
    let catalog: Catalog
    let clicks: ClickHandler

    static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy", "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
    ]

    /// The console's pages: not part of the API, so not in the OpenAPI document.
    var endpoints: [Endpoint] {
        [
            .undocumented(.GET, "/console") { request in
                if isLinkDomain(request) { return try clicks.handle(request) }
                return Response(status: 308, headers: ["Location": "/console/"], body: [])
            },
            .undocumented(.GET, "/console/{file*}") { request in
                if isLinkDomain(request) { return try clicks.handle(request) }
                return try serve(request)
            },
        ]
    }

    private func isLinkDomain(_ request: Request) -> Bool {
        guard let host = request.host else { return false }
        return catalog.entry(governing: host) != nil
    }

    func serve(_ request: Request) throws -> Response {
        let path = request.pathParameter(.file)
        guard let file = files.files[path.isEmpty ? "index.html" : path] else {
            throw ServiceError.notFound("The console file '\(path.prefix(200))'")
        }
        let gzip = file.gzipped != nil && Self.acceptsGzip(request.headers["Accept-Encoding"])
        let etag = gzip ? file.gzipETag : file.document.etag
        var headers = HTTPHeaders()
        for (name, value) in Self.securityHeaders { headers.add(name, value) }
        headers.add("ETag", etag)
        headers.add("Last-Modified", file.document.lastModifiedHeader)
        headers.add("Cache-Control", "no-cache")
        headers.add("Vary", "Accept-Encoding")
        if IfNoneMatch.matches(request.headers["If-None-Match"], file.document.etag, file.gzipETag) {
            return Response(status: 304, headers: headers)
        }
        headers.add("Content-Type", file.contentType)
        if gzip { headers.add("Content-Encoding", "gzip") }
        return Response(status: 200, headers: headers, body: gzip ? file.gzipped! : file.document.bytes)
    }

    /// Whether `Accept-Encoding` accepts gzip: listed (or `*`) without `q=0` (RFC 9110 §12.5.3).
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var star: Bool?
        for item in header.lowercased().split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let coding = parts.first else { continue }
            let refused = parts.dropFirst().contains {
                $0.replacingOccurrences(of: " ", with: "").range(of: #"^q=0(\.0{0,3})?$"#, options: .regularExpression) != nil
            }
            if coding == "gzip" || coding == "x-gzip" { return !refused }
            if coding == "*" { star = !refused }
        }
        return star ?? false
    }
}
