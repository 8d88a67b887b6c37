import HTTPServer

/// A parameter of a route's path (`{host}` in `/v1/domains/{host}`), named once: the routes' templates may use
/// only these names (`RouterBuilder.add(_:auth:)` refuses another), handlers read them with
/// `Request.pathParameter(_:)`, and a resource's address is printed with them (`Endpoint.printing`).
struct PathParameter: Hashable, Sendable {
    /// The name between the braces (`{file*}` gives `file`).
    let name: String

    private init(_ name: String) { self.name = name }

    /// A resource's UUID (an app, a link, a rule, a key, a webhook), or a destination's app.
    static let id = PathParameter("id")
    /// A link domain's hostname.
    static let host = PathParameter("host")
    /// A destination's name.
    static let name = PathParameter("name")
    /// An Apple developer team's ID.
    static let teamID = PathParameter("teamId")
    /// An association version's number.
    static let number = PathParameter("n")
    /// A webhook delivery's number.
    static let deliveryID = PathParameter("deliveryId")
    /// The language of generated code.
    static let language = PathParameter("language")
    /// A person's id (a member of the workspace).
    static let personID = PathParameter("personId")
    /// A console file's path (the rest of the path, possibly empty).
    static let file = PathParameter("file")

    /// Every parameter a route may name.
    static let all: [PathParameter] = [.id, .host, .name, .teamID, .number, .deliveryID, .language, .personID, .file]
}

extension Request {
    /// The value of `parameter` in the path the router matched, percent-decoded. Naming a parameter the route does
    /// not declare is a programming error, not bad input: it stops here rather than answering for another route.
    func pathParameter(_ parameter: PathParameter) -> String {
        guard let value = parameters[parameter.name] else {
            preconditionFailure("the route of \(method) \(path) has no path parameter {\(parameter.name)}")
        }
        return value
    }
}
