import Foundation
import Postgres
@testable import LinkService
import Testing
import TestSupport

@Suite("People: passwords, memberships and sessions in the database")
struct PeopleFoundationTests {
    /// Argon2id in the PHC form, with the documented parameters; the password verifies, any other does not.
    @Test func passwordsAreArgon2idAndVerifyOnlyThemselves() {
        let hasher = PasswordHasher()
        let stored = hasher.hash("correct horse battery staple")
        #expect(stored.hasPrefix("$argon2id$v=19$m=65536,t=3,p=1$"))
        #expect(hasher.verify("correct horse battery staple", against: stored))
        #expect(!hasher.verify("correct horse battery stapler", against: stored))
        #expect(!hasher.verify("anything", against: "$argon2id$not-a-hash"))
        #expect(stored != hasher.hash("correct horse battery staple"), "a fresh salt each time")
    }

    /// A session is found by its token until revoked; a person's role is per workspace.
    @Test func sessionsAreFoundByTokenUntilRevoked() throws {
        try TestService.with { service in
            _ = try service.key(workspace: "acme")
            try service.application.pool.withConnection { connection in
                let workspace = try #require(try connection.query("SELECT id FROM workspaces WHERE name = 'acme'").first).decode(
                    0, as: UUID.self)
                let person = try PersonStore.ensure(email: "Ops@Example.com", on: connection)
                #expect(person.email == "ops@example.com")
                #expect(try PersonStore.ensure(email: "ops@example.com", on: connection).id == person.id)
                try MembershipStore.set(person.id, of: workspace, role: .editor, on: connection)
                #expect(try MembershipStore.role(of: person.id, in: workspace, on: connection) == .editor)
                let (id, token) = try SessionStore.create(
                    person: person.id, workspace: workspace, via: "password",
                    expiresAt: Date() + 3600, address: "192.0.2.1", userAgent: "test",
                    on: connection)
                #expect(try SessionStore.find(token, idle: 600, on: connection)?.personID == person.id)
                #expect(try SessionStore.find(SecretToken.generate(), idle: 600, on: connection) == nil)
                #expect(try SessionStore.revoke(id, of: person.id, on: connection))
                #expect(try SessionStore.find(token, idle: 600, on: connection) == nil)
            }
        }
    }
}
