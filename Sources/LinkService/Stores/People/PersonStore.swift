import Foundation
import Postgres

/// The SQL of `people`.
enum PersonStore {
    static let columns = "id, email, name, password_hash IS NOT NULL, created_at"

    /// The person with `email` (compared in lower case), created without a password when there is none.
    static func ensure(email: String, name: String = "", on connection: Connection) throws -> Person {
        let email = email.lowercased()
        try connection.execute("INSERT INTO people (email, name) VALUES (\(email), \(name)) ON CONFLICT (email) DO NOTHING")
        guard let person = try find(email: email, on: connection) else {
            throw ServiceError.conflict("The person \(email) was deleted while being added; try again.")
        }
        return person
    }

    static func find(_ id: UUID, on connection: Connection) throws -> Person? {
        try connection.query("SELECT \(unescaped: columns) FROM people WHERE id = \(id)").first.map(Person.init(row:))
    }

    static func find(email: String, on connection: Connection) throws -> Person? {
        try connection.query("SELECT \(unescaped: columns) FROM people WHERE email = \(email.lowercased())").first
            .map(Person.init(row:))
    }

    /// The id and stored password hash (nil when none is set) of the person with `email`, for signing in.
    static func credentials(email: String, on connection: Connection) throws -> (id: UUID, passwordHash: String?)? {
        try connection.query("SELECT id, password_hash FROM people WHERE email = \(email.lowercased())").first
            .map { try $0.decode((UUID, String?).self) }
    }

    /// Stores `passwordHash` (an Argon2id PHC string, `PasswordHasher.hash`) as the person's password.
    static func setPassword(_ id: UUID, hash passwordHash: String, on connection: Connection) throws {
        try connection.execute("UPDATE people SET password_hash = \(passwordHash) WHERE id = \(id)")
    }
}

extension Person {
    /// Decodes `PersonStore.columns`, in order.
    init(row: Row) throws {
        (id, email, name, hasPassword, createdAt) = try row.decode((UUID, String, String, Bool, Date).self)
    }
}
