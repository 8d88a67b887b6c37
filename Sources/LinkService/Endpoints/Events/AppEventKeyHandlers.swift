import CCrypto
import Foundation
import HTTPServer
import LinkKit
import Postgres

/// An app's publishable key for `POST /v1/events` (docs/EVENTS.md, "Who may send"): `POST` makes a new one (the old one
/// stops working) and answers it once; `DELETE` removes it. Admins only, audited as `app_event_key`.
struct AppEventKeyHandlers: EndpointGroup {
    let pool: ConnectionPool

    /// `lkp_` and 32 lower-case hex digits (128 random bits).
    static let prefix = "lkp_"
    static let header = "X-Linkd-App-Key"

    static var schemas: [(name: String, schema: Schema)] {
        [
            (
                "AppEventKey",
                Schema.object(
                    [
                        .required("app", Schema.uuid),
                        .required(
                            "key", Schema.string(pattern: "^lkp_[0-9a-f]{32}$").described("The key, shown once: send it as `\(header)`.")),
                        .required("prefix", Schema.string.described("Its first characters, to recognise it.")),
                        .required("createdAt", Schema.created),
                    ], closed: false
                ).described("An app's publishable key: it sends events for its app to `POST /v1/events` and does nothing else.")
            )
        ]
    }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .POST, "/v1/apps/{id}/event-key", "createAppEventKey", "Make a new publishable event key for an app", tag: "Events",
                scope: .write, role: .admin,
                description: """
                    The key may ship inside the app: it only sends events for this app (`POST /v1/events` with `\(Self.header)`), reads \
                    nothing, and is rate-limited per key and per client address. A new key replaces the app's earlier one. Shown once.
                    """,
                bodyRequired: false, success: .json(200, "AppEventKey")
            ) { request, principal in try create(request, principal) },
            Endpoint(
                .DELETE, "/v1/apps/{id}/event-key", "deleteAppEventKey", "Remove an app's publishable event key", tag: "Events",
                scope: .write, role: .admin, success: .noContent
            ) { request, principal in try delete(request, principal) },
        ]
    }

    /// The app `{id}` of the caller's workspace; 404 otherwise.
    private func ownApp(_ request: Request, _ principal: Principal, on connection: Connection) throws -> UUID {
        guard let id = UUID(uuidString: request.pathParameter(.id)),
            try EventStore.apps([id], of: principal.workspaceID, on: connection).contains(id)
        else {
            throw ServiceError.notFound("The app")
        }
        return id
    }

    func create(_ request: Request, _ principal: Principal) throws -> Response {
        var bytes = [UInt8](repeating: 0, count: 16)
        precondition(RAND_bytes(&bytes, Int32(bytes.count)) == 1, "RAND_bytes failed")
        let key = Self.prefix + bytes.map { String(format: "%02x", $0) }.joined()
        let prefix = String(key.prefix(10))
        let (app, created) = try pool.withTransaction { connection -> (UUID, Date) in
            let app = try ownApp(request, principal, on: connection)
            let created = try AppEventKeyStore.replace(
                app: app, workspace: principal.workspaceID, hash: SHA256.hex(key), prefix: prefix,
                on: connection)
            try AuditStore.record(
                on: connection, principal, .replace, type: "app_event_key", id: app.canonicalText,
                after: .object(["app": .string(app.canonicalText), "prefix": .string(prefix)]))
            return (app, created)
        }
        return .json(
            JSONValue.object([
                "app": .string(app.canonicalText), "key": .string(key), "prefix": .string(prefix), "createdAt": .timestamp(created),
            ]).serializedBytes)
    }

    func delete(_ request: Request, _ principal: Principal) throws -> Response {
        try pool.withTransaction { connection in
            let app = try ownApp(request, principal, on: connection)
            guard try AppEventKeyStore.delete(app: app, workspace: principal.workspaceID, on: connection) else {
                throw ServiceError.notFound("The app's event key")
            }
            try AuditStore.record(on: connection, principal, .delete, type: "app_event_key", id: app.canonicalText)
        }
        return Response(status: 204)
    }

    /// Whether `text` has a publishable key's shape.
    static func isKey(_ text: String) -> Bool {
        text.hasPrefix(prefix) && text.utf8.count == 36
            && text.utf8.dropFirst(4).allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
