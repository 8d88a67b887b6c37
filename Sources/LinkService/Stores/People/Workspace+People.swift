import Foundation
import HTTPServer
import LinkKit
import Postgres

extension Workspace {
    /// Adds the person with `email` to the workspace `name` with `role` (creating either when missing; a member
    /// already gets the new role) and makes a one-time link that sets their password, valid `linkLifetime`
    /// seconds: `linkd users create`, the first person of a fresh install (docs/PEOPLE.md, "The first person").
    /// - Returns: the link's token, shown once.
    /// - Throws: `ServiceError.validation` for a bad workspace name, email or name; `PostgresError`.
    public static func addPerson(
        pool: ConnectionPool, workspace name: String, email: String, role: Role, personName: String = "",
        linkLifetime: Int
    ) throws -> SecretToken {
        var errors: [Problem.FieldError] = []
        if name.isEmpty || !TextLimit.workspaceName.allows(name) || name.utf8.contains(0) {
            errors.append(
                .init(
                    pointer: "/workspace",
                    detail:
                        "A workspace name has 1 to 100 characters (Unicode code points), none of them NUL or a bidirectional control (U+202A-202E, U+2066-2069)."
                ))
        }
        if !isEmail(email) {
            errors.append(
                .init(
                    pointer: "/email",
                    detail: "An email address is local@domain, 3 to 254 characters, without spaces or control characters."))
        }
        if !TextLimit.name.allows(personName) || personName.utf8.contains(0) {
            errors.append(
                .init(
                    pointer: "/name",
                    detail: "A person's name has at most 200 characters (Unicode code points), none of them NUL or a bidirectional control."
                ))
        }
        guard errors.isEmpty else { throw ServiceError.validation(errors) }
        return try pool.withTransaction { connection in
            let workspaceID = try WorkspaceStore.ensure(name, on: connection)
            let person = try PersonStore.ensure(email: email, name: personName, on: connection)
            try MembershipStore.set(person.id, of: workspaceID, role: role, on: connection)
            return try OneTimeLinkStore.create(person: person.id, purpose: .setPassword, ttl: linkLifetime, on: connection)
        }
    }

    /// Whether `text` has the shape of an email address: something, `@`, a domain; within `people.email`'s bounds.
    static func isEmail(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        guard (3...254).contains(scalars.count), let at = text.lastIndex(of: "@"), at != text.startIndex,
            text.index(after: at) != text.endIndex
        else { return false }
        return !scalars.contains { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }
    }
}
