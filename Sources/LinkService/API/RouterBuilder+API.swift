import HTTPServer

/// A handler of the authenticated `/v1` API.
typealias APIHandler = @Sendable (Request, Principal) throws -> Response

extension RouterBuilder {
    /// Registers a route that first authenticates the caller with at least `scope`.
    mutating func add(_ method: HTTPMethod, _ template: String, scope: Scope, auth: Authenticator, _ handler: @escaping APIHandler) {
        add(method, template) { request in
            let principal = try auth.authenticate(request, requiring: scope)
            return try handler(request, principal)
        }
    }
}
