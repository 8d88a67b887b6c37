import Foundation
import LinkKit
import Postgres

/// An invitation to join a workspace with a role (`invitations`): a one-time link, until accepted, revoked or
/// past its end.
struct Invitation: ResourceRow {
    enum Status: String {
        case pending, accepted, revoked, expired
    }

    let id: UUID
    let workspaceID: UUID
    /// Lower case, as stored.
    let email: String
    let role: Role
    /// Who invited: their id and email; nil when it was a key without a person, or that person is gone.
    let invitedBy: (id: UUID, email: String)?
    let createdAt: Date
    let expiresAt: Date
    let acceptedAt: Date?
    let revokedAt: Date?
    /// Whether its end has passed (as the database's clock says).
    let isExpired: Bool
    let sortMicros: Int64

    var status: Status {
        if acceptedAt != nil { return .accepted }
        if revokedAt != nil { return .revoked }
        return isExpired ? .expired : .pending
    }

    var json: JSONValue {
        JSONValue.object([
            "id": .uuid(id),
            "email": .string(email),
            "role": .string(role.rawValue),
            "status": .string(status.rawValue),
            "invitedBy": invitedBy.map { JSONValue.object(["id": .uuid($0.id), "email": .string($0.email)]) } ?? .null,
            "createdAt": .timestamp(createdAt),
            "expiresAt": .timestamp(expiresAt),
            "acceptedAt": acceptedAt.map(JSONValue.timestamp) ?? .null,
            "revokedAt": revokedAt.map(JSONValue.timestamp) ?? .null,
        ]).compacted
    }
}

extension Invitation {
    /// Decodes `InvitationStore.columns`, in order.
    init(row: Row) throws {
        let (id, workspaceID, email, role, inviterID, inviterEmail, createdAt, expiresAt, acceptedAt, revokedAt, isExpired, sortMicros) =
            try row.decode((UUID, UUID, String, String, UUID?, String?, Date, Date, Date?, Date?, Bool, Int64).self)
        self.id = id
        self.workspaceID = workspaceID
        self.email = email
        self.role = Role(rawValue: role) ?? .viewer
        invitedBy = inviterID.flatMap { id in inviterEmail.map { (id, $0) } }
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.acceptedAt = acceptedAt
        self.revokedAt = revokedAt
        self.isExpired = isExpired
        self.sortMicros = sortMicros
    }
}
