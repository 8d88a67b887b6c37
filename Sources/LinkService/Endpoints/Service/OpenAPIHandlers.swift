import HTTPServer
import LinkKit

/// `GET /openapi.json`: the OpenAPI document, rendered once when the application is built.
struct OpenAPIHandlers: Sendable {
    /// The serialized document.
    let body: [UInt8]

    /// Renders `document` (linkd's own by default) once.
    init(document: JSONValue = OpenAPIDocument.build()) {
        body = document.serializedBytes
    }

    /// Adds `GET /openapi.json` (no key needed: the document describes, it does not disclose).
    func register(in routes: inout RouterBuilder) {
        routes.get("/openapi.json") { [body] _ in Response.json(body) }
    }
}
