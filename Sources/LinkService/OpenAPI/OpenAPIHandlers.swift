import HTTPServer
import LinkKit

/// `GET /openapi.json`: the OpenAPI document, rendered once when the application is built.
struct OpenAPIHandlers: Sendable {
    /// The serialized document.
    let body: [UInt8]

    init(document: JSONValue = OpenAPIDocument.build()) {
        body = Array(document.serialized.utf8)
    }

    func register(in routes: inout RouterBuilder) {
        routes.get("/openapi.json") { [body] _ in Response.json(body) }
    }
}
