import HTTPServer

/// Routes that belong together (a resource's, a feature's), each declared once as an `Endpoint`: the handler
/// types of `Endpoints/` adopt it, and `Application` adds every group's endpoints to the router and to the
/// OpenAPI document.
protocol EndpointGroup: Sendable {
    var endpoints: [Endpoint] { get }
    /// The components of the OpenAPI document its endpoints name (`#/components/schemas/<name>`): its resources
    /// and request bodies, declared beside its handlers.
    static var schemas: [(name: String, schema: Schema)] { get }
    /// The requests linkd sends rather than answers (the document's `webhooks`): each event's name, what it says
    /// and the component of its body.
    static var events: [(name: String, summary: String, schema: String)] { get }
}

extension EndpointGroup {
    static var schemas: [(name: String, schema: Schema)] { [] }
    static var events: [(name: String, summary: String, schema: String)] { [] }
}

extension RouterBuilder {
    /// Routes each endpoint, authenticating with `auth` those that need a key, inside the endpoint's own
    /// middleware (`Endpoint.middleware`). A route must start with a segment no link's slug may take
    /// (`LinkSlug.reserved`: a link there would never be reached) and name only declared `PathParameter`s.
    mutating func add(_ endpoints: [Endpoint], auth: Authenticator) {
        let parameters = Set(PathParameter.all.map(\.name))
        for endpoint in endpoints {
            precondition(
                LinkSlug.reserved.contains(endpoint.firstSegment),
                "\(endpoint.path): add '\(endpoint.firstSegment)' to LinkSlug.reserved, or links there would be shadowed")
            precondition(
                parameters.isSuperset(of: endpoint.pathParameterNames),
                "\(endpoint.path): declare its parameters in PathParameter")
            add(endpoint.method, endpoint.path, middleware: endpoint.middleware, endpoint.routeHandler(auth: auth))
        }
    }
}
