import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/keys`: an admin key creates, lists and revokes its workspace's keys; `/v1/whoami`: any caller reads itself.
struct KeyHandlers: EndpointGroup {
    let pool: ConnectionPool
    let changes: CatalogChanges

    private var resource: ResourceEndpoints { ResourceEndpoints(changes: changes) }

    static var schemas: [(name: String, schema: Schema)] { APISchemas.keys }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .POST, "/v1/keys", "createAPIKey", "Create an API key in the caller's workspace", tag: "Keys", scope: .admin,
                description: """
                    The secret `key` is in this response only (sent with `Cache-Control: no-store`); linkd keeps a hash. \
                    The key acts as `role`: by default the one its scope implies (`read`: viewer, else admin), never above \
                    the caller's (a higher one is a 422 at `/role`). `createdBy` names the person the caller is, or made the \
                    calling key.
                    """,
                body: "APIKeyCreate", success: .created("CreatedAPIKey", etag: false), create),
            Endpoint(
                .GET, "/v1/keys", "listAPIKeys", "List the workspace's API keys, revoked ones included", tag: "Keys", scope: .admin,
                success: .page("APIKey"), list),
            Endpoint(
                .DELETE, "/v1/keys/{id}", "revokeAPIKey", "Revoke an API key, at once on every node", tag: "Keys", scope: .admin,
                success: .noContent, revoke),
            Endpoint(
                .GET, "/v1/whoami", "whoAmI", "The caller: workspace, scope, role, and the key or the person's session", tag: "Keys",
                scope: .read, role: .viewer,
                description: "Any valid key or session may ask (dashboards show what the caller may do before offering to do it).",
                success: .json(200, "WhoAmI"), whoami),
        ]
    }

    /// The caller's workspace, scope and role, and its key or session (what a dashboard shows, and which edit
    /// controls it offers): `WhoAmI`.
    func whoami(_ request: Request, _ principal: Principal) throws -> Response {
        Response.json(try pool.withConnection { try WhoAmI.body(principal, on: $0) }.serializedBytes)
    }

    func create(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        let name = KeyFields.name.read(&body) ?? ""
        let scope = KeyFields.scope.read(&body, required: true).flatMap(Scope.init(rawValue:))
        let named = KeyFields.role.read(&body).flatMap(Role.init(rawValue:))
        body.finish()
        // Nobody makes a key that may do more than they may.
        let role = named ?? scope.map(Role.implied(by:)).map { min($0, principal.role) }
        if let named, named > principal.role {
            errors.add(
                "/role",
                "A key cannot act as a higher role than its creator's: you act as \(principal.role.rawValue), not \(named.rawValue).")
        }
        try errors.check()
        let (key, secret) = try pool.withTransaction { connection in
            let created = try KeyStore.create(
                on: connection, workspaceID: principal.workspaceID, name: name, scope: scope!, role: role,
                createdBy: principal.personID)
            try AuditStore.record(on: connection, principal, .create, type: "key", id: created.0.id.canonicalText, after: created.0.json)
            return created
        }
        guard case .object(var members) = key.json else { preconditionFailure("a key is an object") }
        members.append(JSONMember(key: "key", value: .string(secret.token)))
        var response = Response.json(JSONValue.object(members).serializedBytes, status: 201)
        response.headers.replaceOrAdd("Location", location("revokeAPIKey", [.id: key.id.canonicalText]))
        return response
    }

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        try resource.list(request) { page, connection in
            try KeyStore.page(page, of: principal.workspaceID, on: connection)
        }
    }

    /// Revokes at once: this node drops the key before answering, the others when they hear it (`CatalogChanges`).
    func revoke(_ request: Request, _ principal: Principal) throws -> Response {
        guard let id = UUID(uuidString: request.pathParameter(.id)) else { throw ServiceError.notFound("The key") }
        try changes.commit { connection, changed in
            guard let key = try KeyStore.revoke(id, workspace: principal.workspaceID, on: connection) else {
                throw ServiceError.notFound("The key")
            }
            try AuditStore.record(on: connection, principal, .delete, type: "key", id: id.canonicalText, after: key.json)
            try changed.keyRevoked(id, on: connection)
        }
        return .empty()
    }
}
