import HTTPServer
import LinkKit

/// `GET /openapi.json`: the OpenAPI document of every endpoint the application routes, this one included,
/// rendered once when the application is built.
struct OpenAPIHandlers: EndpointGroup {
    /// The serialized document.
    let body: [UInt8]

    /// Renders the document of `groups`' endpoints and components and of `GET /openapi.json` itself.
    init(describing groups: [any EndpointGroup]) {
        let endpoints = groups.flatMap(\.endpoints) + [Self.endpoint(serving: [])]
        body =
            OpenAPIDocument.build(
                endpoints, schemas: groups.flatMap { type(of: $0).schemas },
                events: groups.flatMap { type(of: $0).events }
            ).serializedBytes
    }

    var endpoints: [Endpoint] { [Self.endpoint(serving: body)] }

    /// `GET /openapi.json` answering `body` (no key needed: the document describes, it does not disclose).
    private static func endpoint(serving body: [UInt8]) -> Endpoint {
        Endpoint(
            .GET, "/openapi.json", "getOpenAPIDocument", "This OpenAPI 3.1 document", tag: "Service",
            success: .content(200, mediaType: "application/json", schema: Schema.anyObject.described("An OpenAPI 3.1 document."))
        ) { _ in
            Response.json(body)
        }
    }
}
