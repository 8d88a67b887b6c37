import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/keys`: an admin key creates, lists and revokes its workspace's keys; `/v1/whoami`: any key reads itself.
struct KeyHandlers: Sendable {
    let pool: ConnectionPool
    let auth: Authenticator
    let changes: CatalogChanges

    private var endpoints: ResourceEndpoints { ResourceEndpoints(changes: changes) }

    func register(in routes: inout RouterBuilder) {
        routes.add(.POST, "/v1/keys", scope: .admin, auth: auth, create)
        routes.add(.GET, "/v1/keys", scope: .admin, auth: auth, list)
        routes.add(.DELETE, "/v1/keys/{id}", scope: .admin, auth: auth, revoke)
        routes.add(.GET, "/v1/whoami", scope: .read, auth: auth, whoami)
    }

    /// The caller's workspace and key (what a dashboard shows, and which edit controls it offers).
    func whoami(_ request: Request, _ principal: Principal) throws -> Response {
        let (name, key) = try pool.withConnection { connection in
            let name = try WorkspaceStore.name(of: principal.workspaceID, on: connection)
            let key = try KeyStore.find(principal.keyID, of: principal.workspaceID, on: connection)
            guard let name, let key else { throw ServiceError.unauthorized("The API key is unknown or revoked.") }
            return (name, key)
        }
        let body = JSONValue.object([
            "workspace": .object(["id": .uuid(principal.workspaceID), "name": .string(name)]),
            "key": key.json,
        ])
        var response = Response.json(body.serializedBytes)
        response.headers.replaceOrAdd("Cache-Control", "no-store")
        return response
    }

    func create(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        let name = body.string("name", limit: .keyName) ?? ""
        let scopeName = body.string("scope", required: true)
        let scope = scopeName.flatMap(Scope.init(rawValue:))
        if scopeName != nil, scope == nil { errors.add("/scope", "scope must be one of read, write, admin.") }
        body.finish()
        try errors.check()
        let (key, secret) = try pool.withTransaction { connection in
            let created = try KeyStore.create(on: connection, workspaceID: principal.workspaceID, name: name, scope: scope!)
            try AuditStore.record(on: connection, principal, .create, type: "key", id: created.0.id.canonicalText, after: created.0.json)
            return created
        }
        guard case .object(var members) = key.json else { preconditionFailure("a key is an object") }
        members.append(JSONMember(key: "key", value: .string(secret.token)))
        var response = Response.json(JSONValue.object(members).serializedBytes, status: 201)
        response.headers.replaceOrAdd("Location", "/v1/keys/\(key.id.canonicalText)")
        response.headers.replaceOrAdd("Cache-Control", "no-store")
        return response
    }

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        try endpoints.list(request) { page, connection in
            try KeyStore.page(page, where: "workspace_id = $1", [principal.workspaceID], on: connection)
        }
    }

    /// Revokes at once: this node drops the key before answering, the others when they hear it (`CatalogChanges`).
    func revoke(_ request: Request, _ principal: Principal) throws -> Response {
        guard let id = request.parameters["id"].flatMap(UUID.init(uuidString:)) else { throw ServiceError.notFound("The key") }
        try changes.commit { connection, changed in
            guard let key = try KeyStore.revoke(id, workspace: principal.workspaceID, on: connection) else { throw ServiceError.notFound("The key") }
            try AuditStore.record(on: connection, principal, .delete, type: "key", id: id.canonicalText, after: key.json)
            try changed.keyRevoked(id, on: connection)
        }
        return .empty()
    }
}
