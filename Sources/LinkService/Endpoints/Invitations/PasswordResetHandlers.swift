import Foundation
import HTTPServer
import LinkKit
import Observability
import Postgres

/// `POST /v1/password-resets`: mails a one-time link that sets a new password (used at `POST /v1/password`).
/// Always 202, at once and the same for every address: whether the address has an account is looked up by the
/// mailer's thread, off the request (docs/PEOPLE.md, "Mail (SMTP)").
struct PasswordResetHandlers: EndpointGroup {
    /// The mailer's jobs' pool.
    let mailPool: ConnectionPool
    let mailer: Mailer
    let origin: PublicOrigin
    let logger: Logger

    /// How long a reset link works.
    static let lifetime: TimeInterval = 3600
    /// A person is mailed one reset link in this many seconds at most, however often it is asked.
    static let spacing: TimeInterval = 60

    static var schemas: [(name: String, schema: Schema)] { APISchemas.passwordResets }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .POST, "/v1/password-resets", "requestPasswordReset", "Mail a link that resets a password", tag: "Members",
                description: """
                    Public. Answers 202 whether or not the address has an account. With SMTP and a public URL configured, \
                    the person is mailed a one-time link to `/console/#/password` (valid one hour, at most one a minute).
                    """,
                body: "PasswordResetRequest", success: .json(202, "PasswordResetAccepted"), request)
        ]
    }

    func request(_ request: Request) throws -> Response {
        let email = try JSONBody.read(request) { InvitationFields.email.read(&$0, required: true) }
        if let email, mailer.isConfigured {
            if let base = origin.configured {
                mailer.enqueue("password reset") { [mailPool, from = mailer.from] in
                    try mailPool.withTransaction { connection in
                        guard let person = try PersonStore.find(email: email, on: connection),
                            try !OneTimeLinkStore.recent(person: person.id, purpose: .resetPassword, within: Self.spacing, on: connection)
                        else {
                            return nil
                        }
                        let token = try OneTimeLinkStore.create(
                            person: person.id, purpose: .resetPassword, ttl: Int(Self.lifetime), on: connection)
                        let workspaces = try MembershipStore.workspaces(of: person.id, on: connection).map(\.name)
                        return PeopleMail.passwordReset(
                            from: from, to: person.email, workspaces: workspaces, link: OneTimeLinkURLs.password(token, base: base),
                            expiresAt: Date().addingTimeInterval(Self.lifetime))
                    }
                }
            } else {
                logger.warning("password reset not mailed: set --public-url (or --api-hostname) for the link's address")
            }
        }
        let answer = JSONValue.object(["detail": .string("If an account has this address, a link to reset its password is on its way.")])
        return Response.json(answer.serializedBytes, status: 202)
    }
}
