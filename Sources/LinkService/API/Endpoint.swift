import HTTPServer
import LinkKit

/// A handler of an endpoint that needs a key: called with the caller once it is authenticated.
typealias APIHandler = @Sendable (Request, Principal) throws -> Response

/// One route, declared once: its method and path, who may call it, what it reads and answers, and its handler.
///
/// The router (`RouterBuilder.add(_:auth:)`), the OpenAPI document (`OpenAPIDocument`) and the reading of its
/// query parameters (`QueryParameter.read`) are all derived from this one value, so a route cannot be served
/// without being described, or described with another scope or role than it is served with. An endpoint that needs
/// credentials is authenticated with its scope and role (`Authenticator.authenticate(_:requiring:role:)`) before its
/// handler runs.
///
/// The error responses an operation can give are derived from what it is (authenticated → 401, 403 and 503, a path
/// parameter → 404, a JSON body → 415/422, `If-Match` → 412), so a declaration only
/// names what is special about it. Every operation lists the refusals the HTTP layer makes before routing
/// (`httpLayerStatuses`).
struct Endpoint: Sendable {
    /// Who may call it.
    enum Access: Sendable {
        /// No credentials (probes, the association files, this document).
        case `public`
        /// `Authorization: Bearer <key>` with at least this scope.
        case key(Scope)
    }

    /// The successful answer.
    enum Success: Sendable {
        /// 200, the resource with its `ETag`.
        case resource(String)
        /// 201, the new resource with `Location` (and its `ETag` unless `etag` is false).
        case created(String, etag: Bool = true)
        /// 200, one page of a cursor-paginated list of the component: `{"items": [...], "next": …}` and `Link`; with
        /// `csv`, also that page as CSV described by it (`format=csv`).
        case page(String, csv: Schema? = nil)
        /// 204, no body.
        case noContent
        /// `status` with a JSON body of the component and the named response headers (components of the document).
        case json(Int, String, headers: [String] = [])
        /// `status` with a body of `mediaType` described by `schema`.
        case content(Int, mediaType: String, schema: Schema)
        /// `status` with a body in one of several media types (the request chooses: `format`, `Accept`).
        case alternatives(Int, [(mediaType: String, schema: Schema)])
    }

    /// What the HTTP layer can answer to any request before a route sees it (`Server+Callbacks.swift`): a
    /// malformed request (400), a body over the limit (413), a request target over it (414), a header section
    /// over it (431), every connection busy at the connection limit (503, docs/CONNECTIONS.md), an HTTP version
    /// other than 1.x (505).
    static let httpLayerStatuses = [400, 413, 414, 431, 503, 505]

    /// A JSON request body.
    struct Body: Sendable {
        /// The component describing it.
        let schema: String
        /// Whether the request must have a body.
        let required: Bool
        /// The media types the body may be sent as, each with its schema; empty: JSON, described by `schema`.
        var media: [(mediaType: String, schema: Schema)] = []
    }

    let method: HTTPMethod
    /// The router template, e.g. `/v1/domains/{host}/rules/{id}` (OpenAPI's path syntax too).
    let path: String
    let operationID: String
    let summary: String
    let tag: String
    let access: Access
    /// The lowest role that may call it (docs/PEOPLE.md, "Roles"): the one declared, else its tag's for a read or a
    /// write (`Endpoint.defaultRole`); nil for a public endpoint.
    let role: Role?
    var description: String?
    var query: [QueryParameter] = []
    /// Honours `If-Match` (412 on mismatch).
    var ifMatch = false
    /// A conditional `GET`: `If-None-Match` / `If-Modified-Since` answer 304.
    var conditional = false
    var body: Body?
    let success: Success
    /// What the success response means; a generic sentence when nil.
    var successDescription: String?
    /// Error statuses beyond the derived ones (e.g. 409).
    var errors: [Int] = []
    /// What answers the request.
    let handler: Handler
    /// A larger body limit than the server's for this route (a bulk upload), in bytes; nil: the server's
    /// (`ServerConfiguration.routeBodyLimits`, filled by `Application`). Only for a path without parameters.
    var maxBodyBytes: Int?
    /// Whether the OpenAPI document lists it: every API endpoint does; the console's pages do not.
    private(set) var isDocumented = true

    /// How the handler is called.
    enum Handler: Sendable {
        /// After the caller is authenticated with the endpoint's scope (`Access.key`).
        case authenticated(APIHandler)
        /// As the request comes: a public endpoint, or one that decides by itself whether it needs a key
        /// (resolve, when the server answers it publicly).
        case request(RouteHandler)
    }

    /// An endpoint that needs a key with at least `scope`; `handler` is called with the authenticated caller.
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - path: the route template (OpenAPI's path syntax too).
    ///   - operationID: a unique camelCase name (what generated clients call the method).
    ///   - summary: one line.
    ///   - tag: the group in the reference (`OpenAPIDocument.tags`).
    ///   - scope: the key scope needed.
    ///   - role: the lowest role that may call it; nil: its tag's (`defaultRole`).
    ///   - description: longer prose (Markdown).
    ///   - query: query parameters besides `limit`/`cursor` (which `.page` adds).
    ///   - ifMatch: whether `If-Match` is honoured.
    ///   - conditional: whether `If-None-Match` / `If-Modified-Since` can answer 304.
    ///   - body: the component of the JSON request body.
    ///   - bodyRequired: whether the body must be sent.
    ///   - success: the successful response.
    ///   - successDescription: what the successful response means.
    ///   - errors: statuses beyond the derived ones.
    ///   - handler: what answers.
    init(
        _ method: HTTPMethod, _ path: String, _ operationID: String, _ summary: String, tag: String, scope: Scope, role: Role? = nil,
        description: String? = nil, query: [QueryParameter] = [], ifMatch: Bool = false, conditional: Bool = false, body: String? = nil,
        bodyRequired: Bool = true, success: Success, successDescription: String? = nil, errors: [Int] = [], _ handler: @escaping APIHandler
    ) {
        self.init(
            method, path, operationID, summary, tag: tag, access: .key(scope), role: role, description: description, query: query,
            ifMatch: ifMatch,
            conditional: conditional, body: body, bodyRequired: bodyRequired, success: success, successDescription: successDescription,
            errors: errors, handler: .authenticated(handler))
    }

    /// An endpoint whose handler is called with the request as it comes: public (the default), or described with
    /// the `access` it checks by itself.
    init(
        _ method: HTTPMethod, _ path: String, _ operationID: String, _ summary: String, tag: String, access: Access = .public,
        description: String? = nil, query: [QueryParameter] = [], ifMatch: Bool = false, conditional: Bool = false, body: String? = nil,
        bodyRequired: Bool = true, success: Success, successDescription: String? = nil, errors: [Int] = [],
        _ handler: @escaping RouteHandler
    ) {
        self.init(
            method, path, operationID, summary, tag: tag, access: access, role: nil, description: description, query: query,
            ifMatch: ifMatch,
            conditional: conditional, body: body, bodyRequired: bodyRequired, success: success, successDescription: successDescription,
            errors: errors, handler: .request(handler))
    }

    private init(
        _ method: HTTPMethod, _ path: String, _ operationID: String, _ summary: String, tag: String, access: Access, role: Role?,
        description: String?, query: [QueryParameter], ifMatch: Bool, conditional: Bool, body: String?, bodyRequired: Bool,
        success: Success, successDescription: String?, errors: [Int], handler: Handler
    ) {
        self.method = method
        self.path = path
        self.operationID = operationID
        self.summary = summary
        self.tag = tag
        self.access = access
        switch access {
        case .public: self.role = nil
        case .key(let scope): self.role = role ?? Self.defaultRole(tag: tag, method: method, scope: scope)
        }
        self.description = description
        self.query = query
        self.ifMatch = ifMatch
        self.conditional = conditional
        self.body = body.map { Body(schema: $0, required: bodyRequired) }
        self.success = success
        self.successDescription = successDescription
        self.errors = errors
        self.handler = handler
    }

    /// A route outside the API (the console's pages), answered as the request comes and left out of the
    /// OpenAPI document.
    static func undocumented(_ method: HTTPMethod, _ path: String, _ handler: @escaping RouteHandler) -> Endpoint {
        var endpoint = Endpoint(method, path, "", "", tag: "", success: .noContent, handler)
        endpoint.isDocumented = false
        return endpoint
    }

    /// This endpoint with a body limit of its own (`maxBodyBytes`).
    func bodyLimit(_ bytes: Int) -> Endpoint {
        precondition(pathParameterNames.isEmpty, "\(operationID): a body limit needs a literal path")
        var endpoint = self
        endpoint.maxBodyBytes = bytes
        return endpoint
    }

    /// This endpoint taking its body in the `media` types (each with its schema) rather than as JSON only.
    func bodyMedia(_ media: [(mediaType: String, schema: Schema)]) -> Endpoint {
        var endpoint = self
        endpoint.body?.media = media
        return endpoint
    }

    /// The route's handler as the router calls it: authenticating first, with the endpoint's scope and role, when
    /// the endpoint needs credentials.
    func routeHandler(auth: Authenticator) -> RouteHandler {
        switch (handler, access) {
        case (.authenticated(let handler), .key(let scope)):
            let role = role ?? .owner
            return { request in try handler(request, try auth.authenticate(request, requiring: scope, role: role)) }
        case (.authenticated, .public):
            preconditionFailure("\(operationID): the initialisers give an authenticated handler a key scope")
        case (.request(let handler), _):
            return handler
        }
    }

    /// What runs around the route's handler alone: an endpoint that needs a key answers `Cache-Control: no-store`,
    /// errors included (`NoStoreMiddleware`).
    var middleware: [any Middleware] {
        if case .key = access { return [NoStoreMiddleware()] }
        return []
    }

    /// The `{name}` parameters of `path`, in order (`{rest*}` gives `rest`).
    var pathParameterNames: [String] {
        path.split(separator: "/").compactMap { segment in
            guard segment.hasPrefix("{"), segment.hasSuffix("}") else { return nil }
            let name = segment.dropFirst().dropLast()
            return String(name.hasSuffix("*") ? name.dropLast() : name)
        }
    }

    /// Every error status this operation can answer with, ascending.
    var errorStatuses: [Int] {
        var statuses = Set(errors).union(Self.httpLayerStatuses)
        if case .key = access {
            // 503: a key not verified yet cannot be checked while the database is unreachable. 403: a scope above
            // `read` the key lacks, and for any scope a session cookie sent from another origin.
            statuses.formUnion([401, 403, 503])
        }
        if !pathParameterNames.isEmpty { statuses.insert(404) }
        if body != nil { statuses.formUnion([415, 422]) }
        if ifMatch { statuses.insert(412) }
        return statuses.sorted()
    }
}
