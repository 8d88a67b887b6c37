import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/apps/{id}/destinations`: the typed in-app screens of an app, addressed by name.
struct DestinationHandlers: Sendable {
    let pool: ConnectionPool
    let auth: Authenticator
    let changes: CatalogChanges

    func register(in routes: inout RouterBuilder) {
        routes.add(.POST, "/v1/apps/{id}/destinations", scope: .write, auth: auth, create)
        routes.add(.GET, "/v1/apps/{id}/destinations", scope: .read, auth: auth, list)
        routes.add(.GET, "/v1/apps/{id}/destinations/{name}", scope: .read, auth: auth, get)
        routes.add(.PUT, "/v1/apps/{id}/destinations/{name}", scope: .write, auth: auth, replace)
        routes.add(.DELETE, "/v1/apps/{id}/destinations/{name}", scope: .write, auth: auth, delete)
    }

    func create(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        let name = Validators.identifier(body.string("name", required: true), at: "/name", errors)
        let title = body.string("title", limit: .name)
        let preview = Self.preview(&body)
        let params = ParameterSpecJSON.read(Self.params(&body), at: "/params", errors)
        body.finish()
        let destination = try changes.commit { connection, changed -> Destination in
            let app = try AppHandlers.find(request.parameters["id"], principal, on: connection)
            try errors.check()
            let exists = try connection.query("SELECT 1 FROM destinations WHERE app_id = \(app.id) AND name = \(name!)")
            if exists.count > 0 { throw ServiceError.conflict("The app already has a destination type '\(name!)'.") }
            let row = try connection.query(Query(unsafeSQL: """
                INSERT INTO destinations (workspace_id, app_id, name, title, params, description, image_url)
                VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING \(Destination.columns)
                """, binds: [principal.workspaceID, app.id, name!, title, JSONB(ParameterSpecJSON.json(params).serialized),
                             preview.description, preview.imageURL])).first!
            let destination = try Destination(row: row)
            try AuditLog.record(on: connection, principal, .create, type: "destination", id: "\(app.id.canonicalText)/\(destination.name)", after: destination.json)
            try changed.appChanged(app.id, on: connection)
            return destination
        }
        return .resource(destination.json, version: destination.version, status: 201, location: destination.location(app: destination.appID))
    }

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        let page = try Page(request)
        let destinations = try pool.withConnection { connection in
            let app = try AppHandlers.find(request.parameters["id"], principal, on: connection)
            return try page.rows(of: "destinations", columns: Destination.columns, where: "app_id = $1", binds: [app.id], on: connection, decode: Destination.init(row:))
        }
        return page.response(request, items: destinations.map { ($0.json, $0.sortMicros, $0.id) })
    }

    func get(_ request: Request, _ principal: Principal) throws -> Response {
        let destination = try pool.withConnection { try find(request, principal, on: $0).1 }
        return .resource(destination.json, version: destination.version)
    }

    /// Replaces title, preview metadata and parameters (the name is the address and stays).
    func replace(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        if let sent = body.string("name"), sent != request.parameters["name"] {   // null reads as absent
            errors.add("/name", "The name is the destination's address and cannot be changed; create a new destination type.")
        }
        let title = body.string("title", limit: .name)
        let preview = Self.preview(&body)
        let params = ParameterSpecJSON.read(Self.params(&body), at: "/params", errors)
        body.finish()
        let destination = try changes.commit { connection, changed -> Destination in
            let (app, before) = try find(request, principal, on: connection, forUpdate: true)
            try errors.check()
            try ETag.check(request, current: before.version)
            let row = try connection.query(Query(unsafeSQL: """
                UPDATE destinations SET title = $2, params = $3, description = $4, image_url = $5, version = version + 1, updated_at = now()
                WHERE id = $1 RETURNING \(Destination.columns)
                """, binds: [before.id, title, JSONB(ParameterSpecJSON.json(params).serialized), preview.description, preview.imageURL])).first!
            let after = try Destination(row: row)
            try AuditLog.record(on: connection, principal, .update, type: "destination", id: "\(app.id.canonicalText)/\(after.name)", before: before.json, after: after.json)
            try changed.appChanged(app.id, on: connection)
            return after
        }
        return .resource(destination.json, version: destination.version)
    }

    func delete(_ request: Request, _ principal: Principal) throws -> Response {
        try changes.commit { connection, changed in
            let (app, destination) = try find(request, principal, on: connection, forUpdate: true)
            try ETag.check(request, current: destination.version)
            let users = try connection.query("""
                SELECT DISTINCT d.hostname FROM rules r JOIN rule_apps ra ON ra.rule_id = r.id JOIN domains d ON d.id = r.domain_id
                WHERE ra.app_id = \(app.id) AND r.definition -> 'destination' ->> 'type' = \(destination.name)
                """).map { try $0.decode(0, as: String.self) }
            if !users.isEmpty {
                throw ServiceError.conflict("Rules of \(users.sorted().joined(separator: ", ")) lead to '\(destination.name)'; change them first.")
            }
            try connection.execute("DELETE FROM destinations WHERE id = \(destination.id)")
            try AuditLog.record(on: connection, principal, .delete, type: "destination", id: "\(app.id.canonicalText)/\(destination.name)", before: destination.json)
            try changed.appChanged(app.id, on: connection)
        }
        return .empty()
    }

    private func find(_ request: Request, _ principal: Principal, on connection: Connection, forUpdate: Bool = false) throws -> (app: App, destination: Destination) {
        let app = try AppHandlers.find(request.parameters["id"], principal, on: connection)
        let name = request.parameters["name"] ?? ""
        let row = try connection.query(Query(unsafeSQL: """
            SELECT \(Destination.columns) FROM destinations WHERE app_id = $1 AND name = $2 \(forUpdate ? "FOR UPDATE" : "")
            """, binds: [app.id, name])).first
        guard let row else { throw ServiceError.notFound("The destination type '\(name)'") }
        return (app, try Destination(row: row))
    }

    /// The `description` and `imageUrl` members (an https URL only).
    private static func preview(_ body: inout JSONObjectReader) -> LinkPreview {
        let description = body.string("description", limit: .comment)
        let image = Validators.httpsURL(body.string("imageUrl", limit: .url), at: body.at("imageUrl"), body.errors)
        return LinkPreview(description: description, imageURL: image)
    }

    /// The `params` member; absent and `null` (which `JSONObjectReader` reads as absent) are no parameters.
    private static func params(_ body: inout JSONObjectReader) -> JSONValue {
        switch body.value("params") {
        case nil, .null?: .object([])
        case let value?: value
        }
    }
}
