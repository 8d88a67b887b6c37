import Foundation
import HTTPServer
import LinkKit

/// The association files, where Apple's CDN and Android's verifier fetch them, chosen by `Host`:
/// `/.well-known/apple-app-site-association` (and the legacy root location), `/.well-known/assetlinks.json`.
///
/// Always 200 with `application/json` for a known domain, never a redirect; a strong ETag derived from the
/// bytes, Last-Modified, Cache-Control; `If-None-Match` / `If-Modified-Since` answer 304; HEAD works
/// (the router answers it from GET). An unknown host gets 404, which Apple reads as "no association".
struct AssociationHandlers: EndpointGroup {
    let catalog: Catalog
    let fetches: AssociationFetchLog
    /// `Cache-Control: public, max-age=<maxAge>`.
    let maxAge: Int
    private let cacheControl: String
    /// Whether every response varies by `Origin` (CORS is on: `CORSMiddleware` adds `Vary: Origin` to every
    /// response). The prepared answers then carry it already, so the middleware leaves them as they were made.
    let varyOrigin: Bool

    init(catalog: Catalog, fetches: AssociationFetchLog, maxAge: Int, varyOrigin: Bool = false) {
        self.catalog = catalog
        self.fetches = fetches
        self.maxAge = maxAge
        self.cacheControl = "public, max-age=\(maxAge)"
        self.varyOrigin = varyOrigin
    }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .GET, "/.well-known/apple-app-site-association", "getAASA", "The apple-app-site-association file of the requested host",
                tag: "Association files", access: .public,
                description:
                    "What Apple's CDN fetches. The domain is chosen by `Host` (a wildcard domain's file is served at its root domain). Always 200 with `application/json`, never a redirect; 404 when no link domain is registered for the host.",
                conditional: true, success: .json(200, "AASAFile", headers: ["ETag", "Last-Modified", "Cache-Control"]), errors: [404]
            ) { try serve(.aasa, $0) },
            Endpoint(
                .GET, "/apple-app-site-association", "getAASALegacyLocation",
                "The apple-app-site-association file at the legacy root location",
                tag: "Association files", access: .public, description: "The same file as `/.well-known/apple-app-site-association`.",
                conditional: true, success: .json(200, "AASAFile", headers: ["ETag", "Last-Modified", "Cache-Control"]), errors: [404]
            ) { try serve(.aasa, $0) },
            Endpoint(
                .GET, "/.well-known/assetlinks.json", "getAssetLinks", "The Digital Asset Links file of the requested host",
                tag: "Association files", access: .public, description: "What Android's App Links verifier fetches; chosen by `Host`.",
                conditional: true, success: .json(200, "AssetLinks", headers: ["ETag", "Last-Modified", "Cache-Control"]), errors: [404]
            ) { try serve(.assetLinks, $0) },
        ]
    }

    func serve(_ file: AssociationFile, _ request: Request) throws -> Response {
        guard let host = request.host, let entry = catalog.entry(servedAt: host) else {
            fetches.record(host: request.host ?? "", file: file, request: request, etag: nil, status: 404)
            throw ServiceError.notFound("No link domain is registered for the host '\((request.host ?? "").prefix(253))'; the association")
        }
        let document = file == .aasa ? entry.aasa : entry.assetLinks
        // Every fetch of this version gets the same bytes: made once per document and answer, then sent as is.
        let answer: Answer = Self.isCurrent(document, request) ? .notModified : .ok
        let prepared = document.prepared.object(answer.rawValue) {
            var response = Self.response(answer, document, cacheControl: cacheControl)
            if varyOrigin { response.headers.add("Vary", "Origin") }
            return PreparedResponse(response)
        }
        fetches.record(host: entry.hostname, file: file, request: request, etag: document.etag, status: prepared.status)
        return Response(prepared)
    }

    /// The two answers for a known domain; the raw value is the slot of `StaticDocument.prepared`.
    enum Answer: Int {
        case ok = 0
        case notModified = 1
    }

    /// 200 with the bytes, or 304 when the client's copy is current.
    static func conditional(_ document: StaticDocument, _ request: Request, cacheControl: String) -> Response {
        response(isCurrent(document, request) ? .notModified : .ok, document, cacheControl: cacheControl)
    }

    /// Whether the client's copy is current (RFC 9110 §13.1: `If-None-Match` takes precedence; `If-Modified-Since`
    /// only when it is absent).
    static func isCurrent(_ document: StaticDocument, _ request: Request) -> Bool {
        if let tags = request.headers["If-None-Match"] { return IfNoneMatch.matches(tags, document.etag) }
        if let since = request.headers["If-Modified-Since"].flatMap(HTTPDate.parse) { return document.lastModified <= since }
        return false
    }

    static func response(_ answer: Answer, _ document: StaticDocument, cacheControl: String) -> Response {
        var headers: HTTPHeaders = ["ETag": document.etag, "Last-Modified": document.lastModifiedHeader, "Cache-Control": cacheControl]
        guard answer == .ok else { return Response(status: 304, headers: headers) }
        headers.add("Content-Type", "application/json")
        return Response(status: 200, headers: headers, body: document.bytes)
    }
}
