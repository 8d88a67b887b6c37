import Foundation
import LinkKit
@testable import LinkService
import Outbound
import Postgres
import TestSupport

/// People set up directly in the database, for the members', invitations' and password resets' tests.
extension TestService {
    /// The id of the workspace `name` (created with a key when missing).
    func workspaceID(_ name: String = "acme") throws -> UUID {
        _ = try key(workspace: name)
        return try application.pool.withConnection { connection in
            try connection.query("SELECT id FROM workspaces WHERE name = \(name)").first!.decode(0, as: UUID.self)
        }
    }

    /// A person who is a member of `workspace` with `role`, with a password when given.
    @discardableResult
    func member(_ email: String, _ role: Role, of workspace: UUID, password: String? = nil) throws -> Person {
        try application.pool.withConnection { connection in
            let person = try PersonStore.ensure(email: email, on: connection)
            if let password { try PersonStore.setPassword(person.id, hash: PasswordHasher.forTests.hash(password), on: connection) }
            try MembershipStore.set(person.id, of: workspace, role: role, on: connection)
            return person
        }
    }

    /// A live session of `person`; its token.
    func session(of person: UUID, in workspace: UUID) throws -> SecretToken {
        try application.pool.withConnection { connection in
            try SessionStore.create(
                person: person, workspace: workspace, via: "password", expiresAt: Date() + 3600, address: "192.0.2.1",
                userAgent: "test", on: connection
            ).token
        }
    }

    /// Whether `token` is a live session.
    func isLive(_ token: SecretToken) throws -> Bool {
        try application.pool.withConnection { try SessionStore.find(token, idle: 3600, on: $0) != nil }
    }

    /// The role of `person` in `workspace`; nil when not a member.
    func role(of person: UUID, in workspace: UUID) throws -> Role? {
        try application.pool.withConnection { try MembershipStore.role(of: person, in: workspace, on: $0) }
    }

    /// A service whose people's passwords hash cheaply, with `configure` applied after.
    static func withPeople<T>(configure: (inout ServiceConfiguration) -> Void = { _ in }, _ body: (TestService) throws -> T) throws -> T {
        try with(
            configure: { configuration in
                configuration.sessions.passwordHasher = .forTests
                configure(&configuration)
            }, body)
    }
}

extension SMTPTestServer {
    /// Settings that send to this server in plain text.
    var settings: SMTPSettings {
        var settings = SMTPSettings()
        settings.url = "smtp://127.0.0.1:\(port)"
        settings.from = "linkd@links.example.com"
        settings.startTLS = .off
        return settings
    }
}
