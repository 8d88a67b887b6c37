import Foundation
import Postgres

/// The members of a workspace: listed, their role changed, removed; the last owner kept.
extension MembershipStore {
    /// One page of `workspace`'s members in the order they joined (`(created_at, person_id)`), plus one more when
    /// another page exists.
    static func members(of workspace: UUID, page: Page, on connection: Connection) throws -> [Member] {
        let after = page.after
        return try connection.query(
            """
            SELECT p.id, p.email, p.name, p.password_hash IS NOT NULL, p.created_at, m.role, m.created_at,
                   (extract(epoch FROM m.created_at) * 1000000)::int8
            FROM memberships m JOIN people p ON p.id = m.person_id
            WHERE m.workspace_id = \(workspace)
              AND (\(after?.micros)::int8 IS NULL
                   OR (m.created_at, m.person_id) > (timestamptz 'epoch' + \(after?.micros)::int8 * interval '1 microsecond', \(after?.id)::uuid))
            ORDER BY m.created_at, m.person_id LIMIT \(page.limit + 1)
            """
        ).map { row in
            let (id, email, name, hasPassword, personCreated, role, joined, micros) =
                try row.decode((UUID, String, String, Bool, Date, String, Date, Int64).self)
            return Member(
                person: Person(id: id, email: email, name: name, hasPassword: hasPassword, createdAt: personCreated),
                role: Role(rawValue: role) ?? .viewer, createdAt: joined, sortMicros: micros)
        }
    }

    /// The member `person` of `workspace`, nil when they are not one.
    static func member(_ person: UUID, of workspace: UUID, on connection: Connection) throws -> Member? {
        try connection.query(
            """
            SELECT p.id, p.email, p.name, p.password_hash IS NOT NULL, p.created_at, m.role, m.created_at,
                   (extract(epoch FROM m.created_at) * 1000000)::int8
            FROM memberships m JOIN people p ON p.id = m.person_id
            WHERE m.workspace_id = \(workspace) AND m.person_id = \(person)
            """
        ).first.map { row in
            let (id, email, name, hasPassword, personCreated, role, joined, micros) =
                try row.decode((UUID, String, String, Bool, Date, String, Date, Int64).self)
            return Member(
                person: Person(id: id, email: email, name: name, hasPassword: hasPassword, createdAt: personCreated),
                role: Role(rawValue: role) ?? .viewer, createdAt: joined, sortMicros: micros)
        }
    }

    /// The owners of `workspace`, their memberships locked until the transaction ends: two changes that would each
    /// leave one owner wait for each other, and the second sees what the first left.
    static func lockOwners(of workspace: UUID, on connection: Connection) throws -> Set<UUID> {
        Set(
            try connection.query(
                """
                SELECT person_id FROM memberships WHERE workspace_id = \(workspace) AND role = 'owner' FOR UPDATE
                """
            ).map { try $0.decode(0, as: UUID.self) })
    }

    /// Removes `person` from `workspace`; whether they were a member.
    @discardableResult
    static func remove(_ person: UUID, from workspace: UUID, on connection: Connection) throws -> Bool {
        try connection.execute("DELETE FROM memberships WHERE workspace_id = \(workspace) AND person_id = \(person)") > 0
    }
}
