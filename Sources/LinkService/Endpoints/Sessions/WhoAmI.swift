import Foundation
import LinkKit
import Postgres

/// The body of `GET /v1/whoami` (and of a sign-in): who is calling, in which workspace, with what scope and role,
/// through a key or a person's session.
enum WhoAmI {
    /// - Throws: `ServiceError.unauthorized` when the key, the session or the workspace went away meanwhile.
    static func body(_ principal: Principal, on connection: Connection) throws -> JSONValue {
        guard let name = try WorkspaceStore.name(of: principal.workspaceID, on: connection) else {
            throw ServiceError.unauthorized("The workspace no longer exists.")
        }
        var members: [JSONMember] = [
            JSONMember(key: "workspace", value: .object(["id": .uuid(principal.workspaceID), "name": .string(name)])),
            JSONMember(key: "scope", value: .string(principal.scope.rawValue)),
            JSONMember(key: "role", value: .string(principal.role.rawValue)),
        ]
        if let sessionID = principal.sessionID, let personID = principal.personID {
            guard let person = try PersonStore.find(personID, on: connection),
                let session = try SessionStore.listed(sessionID, on: connection)
            else { throw ServiceError.unauthorized("The session has ended; sign in again (POST /v1/sessions).") }
            let workspaces = try MembershipStore.workspaces(of: personID, on: connection)
            members += [
                JSONMember(key: "via", value: .string("session")),
                JSONMember(key: "person", value: person.json),
                JSONMember(
                    key: "workspaces",
                    value: .array(
                        workspaces.map {
                            .object(["id": .uuid($0.id), "name": .string($0.name), "role": .string($0.role.rawValue)])
                        })),
                JSONMember(key: "session", value: session.json(current: sessionID)),
                JSONMember(key: "key", value: .null),
            ]
        } else {
            guard let key = try KeyStore.find(principal.keyID, of: principal.workspaceID, on: connection) else {
                throw ServiceError.unauthorized("The API key is unknown or revoked.")
            }
            members += [
                JSONMember(key: "via", value: .string("key")),
                JSONMember(key: "person", value: .null),
                JSONMember(key: "session", value: .null),
                JSONMember(key: "key", value: key.json),
            ]
        }
        return .object(members)
    }
}

extension SessionStore.Listed {
    /// As `GET /v1/sessions` lists it; `current` is the session of the request.
    func json(current: UUID?) -> JSONValue {
        .object([
            "id": .uuid(id),
            "via": .string(via),
            "createdAt": .timestamp(createdAt),
            "lastSeenAt": .timestamp(lastSeenAt),
            "expiresAt": .timestamp(expiresAt),
            "address": .string(address),
            "userAgent": .string(userAgent),
            "current": .bool(id == current),
        ])
    }
}
