import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/apps/{id}/destinations`: the typed in-app screens of an app, addressed by name.
struct DestinationHandlers: EndpointGroup {
    let changes: CatalogChanges

    private var resource: ResourceEndpoints { ResourceEndpoints(changes: changes) }

    static var schemas: [(name: String, schema: Schema)] { APISchemas.destinations }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .POST, "/v1/apps/{id}/destinations", "createDestination", "Declare a destination type of an app", tag: "Destinations",
                scope: .write, body: "DestinationCreate", success: .created("Destination"), errors: [409], create),
            Endpoint(
                .GET, "/v1/apps/{id}/destinations", "listDestinations", "List an app's destination types", tag: "Destinations",
                scope: .read, success: .page("Destination"), list),
            Endpoint(
                .GET, "/v1/apps/{id}/destinations/{name}", "getDestination", "Read a destination type", tag: "Destinations",
                scope: .read, success: .resource("Destination"), get),
            Endpoint(
                .PUT, "/v1/apps/{id}/destinations/{name}", "replaceDestination", "Replace a destination type's title and parameters",
                tag: "Destinations", scope: .write, ifMatch: true, body: "DestinationReplace", success: .resource("Destination"), replace),
            Endpoint(
                .DELETE, "/v1/apps/{id}/destinations/{name}", "deleteDestination", "Delete a destination type no rule leads to",
                tag: "Destinations", scope: .write, ifMatch: true, success: .noContent, errors: [409], delete),
        ]
    }

    func create(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        let name = DestinationFields.name.read(&body, required: true)
        let title = DestinationFields.title.read(&body)
        let preview = Self.preview(&body)
        let params = ParameterSpecJSON.read(Self.params(&body), at: "/params", errors)
        let requiresSignIn = DestinationFields.requiresSignIn.read(&body) ?? false
        body.finish()
        let location = { (new: Destination) in self.location("getDestination", [.id: new.appID.canonicalText, .name: new.name]) }
        return try resource.create(principal, location: location) { connection, changed in
            let app = try AppHandlers.find(request.pathParameter(.id), principal, on: connection)
            try errors.check()
            if try DestinationStore.find(name!, of: app.id, on: connection) != nil {
                throw ServiceError.conflict("The app already has a destination type '\(name!)'.")
            }
            let destination = try DestinationStore.insert(
                name!, title: title, preview: preview, parameters: params, requiresSignIn: requiresSignIn, app: app.id,
                workspace: principal.workspaceID, on: connection)
            try changed.appChanged(app.id, on: connection)
            return destination
        }
    }

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        try resource.list(request) { page, connection in
            let app = try AppHandlers.find(request.pathParameter(.id), principal, on: connection)
            return try DestinationStore.page(page, of: app.id, on: connection)
        }
    }

    func get(_ request: Request, _ principal: Principal) throws -> Response {
        try resource.get { try find(request, principal, on: $0) }
    }

    /// Replaces title, preview metadata and parameters (the name is the address and stays).
    func replace(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        if let sent = body.string("name"), sent != request.pathParameter(.name) { // null reads as absent
            errors.add("/name", "The name is the destination's address and cannot be changed; create a new destination type.")
        }
        let title = DestinationFields.title.read(&body)
        let preview = Self.preview(&body)
        let params = ParameterSpecJSON.read(Self.params(&body), at: "/params", errors)
        let requiresSignIn = DestinationFields.requiresSignIn.read(&body) ?? false
        body.finish()
        return try resource.update(
            request, principal, find: { try find(request, principal, on: $0, forUpdate: true) },
            check: { _, _ in try errors.check() }
        ) { before, _, connection, changed in
            let after = try DestinationStore.replace(
                before.id, title: title, preview: preview, parameters: params, requiresSignIn: requiresSignIn, on: connection)
            try changed.appChanged(after.appID, on: connection)
            return after
        }
    }

    func delete(_ request: Request, _ principal: Principal) throws -> Response {
        try resource.delete(request, principal, find: { try find(request, principal, on: $0, forUpdate: true) }) {
            destination, connection, changed in
            let users = try DestinationStore.hostnames(leadingTo: destination.name, app: destination.appID, on: connection)
            if !users.isEmpty {
                throw ServiceError.conflict(
                    "Rules of \(users.sorted().joined(separator: ", ")) lead to '\(destination.name)'; change them first.")
            }
            let links = try LinkStore.leading(to: destination.appID, type: destination.name, on: connection)
            if links.count > 0 {
                throw ServiceError.conflict("'\(destination.name)' is the destination of \(links); delete or change the links first.")
            }
            try DestinationStore.delete(destination.id, on: connection)
            try changed.appChanged(destination.appID, on: connection)
        }
    }

    /// The destination type named by the path, of an app in the caller's workspace; 404 otherwise.
    private func find(_ request: Request, _ principal: Principal, on connection: Connection, forUpdate: Bool = false) throws -> Destination
    {
        let app = try AppHandlers.find(request.pathParameter(.id), principal, on: connection)
        let name = request.pathParameter(.name)
        guard let destination = try DestinationStore.find(name, of: app.id, forUpdate: forUpdate, on: connection) else {
            throw ServiceError.notFound("The destination type '\(name)'")
        }
        return destination
    }

    /// The `description` and `imageUrl` members (an https URL only).
    private static func preview(_ body: inout JSONObjectReader) -> LinkPreview {
        LinkPreview(description: DestinationFields.description.read(&body), imageURL: DestinationFields.imageURL.read(&body))
    }

    /// The `params` member; absent and `null` (which `JSONObjectReader` reads as absent) are no parameters.
    private static func params(_ body: inout JSONObjectReader) -> JSONValue {
        switch body.value("params") {
        case nil, .null?: .object([])
        case let value?: value
        }
    }
}
