import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `POST /v1/invitations/accept`: the invitation's token joins its person to the workspace with its role, and
/// begins a session.
extension InvitationHandlers {
    func accept(_ request: Request) throws -> Response {
        let (tokenText, name, password) = try JSONBody.read(request) {
            (InvitationFields.token.read(&$0, required: true), InvitationFields.name.read(&$0), InvitationFields.password.read(&$0))
        }
        let token = tokenText.flatMap { SecretToken(presented: Substring($0)) }
        guard let token else { throw ServiceError.badRequest("The token is missing.") }

        // Who accepts, and with which password, is settled before the transaction: hashing takes a while.
        let signedIn = try signedInPerson(request)
        let (invitation, person, storedHash) = try pool.withConnection { connection in
            guard let invitation = try InvitationStore.pending(token, on: connection) else { throw Self.unusable }
            let person = try PersonStore.find(email: invitation.email, on: connection)
            let stored = try PersonStore.credentials(email: invitation.email, on: connection)?.passwordHash
            return (invitation, person, stored)
        }
        var newHash: String?
        if let person, let storedHash {
            if signedIn != person.id {
                guard let password else {
                    throw ServiceError.unauthorized("\(invitation.email) has a password: give it with 'password', or sign in first.")
                }
                guard issuer.configuration.passwordHasher.verify(password, against: storedHash) else {
                    throw ServiceError.unauthorized("The password is not the one of \(invitation.email).")
                }
            }
        } else {
            let errors = FieldErrors()
            Self.checkNewPassword(password, email: invitation.email, errors: errors)
            try errors.check()
            newHash = password.map(issuer.configuration.passwordHasher.hash)
        }

        let answer = try pool.withTransaction { connection in
            guard let invitation = try InvitationStore.pending(token, on: connection) else { throw Self.unusable }
            let person = try PersonStore.ensure(email: invitation.email, name: name ?? "", on: connection)
            if let newHash {
                guard !person.hasPassword else {
                    throw ServiceError.conflict("A password was set for \(person.email) meanwhile; try again.")
                }
                try PersonStore.setPassword(person.id, hash: newHash, on: connection)
            }
            let current = try MembershipStore.role(of: person.id, in: invitation.workspaceID, on: connection)
            let role = max(current ?? invitation.role, invitation.role)
            try MembershipStore.set(person.id, of: invitation.workspaceID, role: role, on: connection)
            try InvitationStore.accept(invitation.id, by: person.id, on: connection)
            let principal = Principal(workspaceID: invitation.workspaceID, keyID: nil, personID: person.id, scope: .admin, role: role)
            let member = try MembershipStore.member(person.id, of: invitation.workspaceID, on: connection)
            try AuditStore.record(
                on: connection, principal, current == nil ? .create : .update, type: "member", id: person.id.canonicalText,
                after: member?.json)
            let session = try issuer.begin(
                person: person.id, workspace: invitation.workspaceID, via: "password", request: request,
                on: connection)
            let signedIn = Principal(
                workspaceID: invitation.workspaceID, keyID: nil, personID: person.id, sessionID: session.id,
                scope: Authenticator.scope(of: role), role: role)
            let body = try WhoAmI.body(signedIn, on: connection)
            return (body, session.setCookie)
        }
        var response = Response.json(answer.0.serializedBytes, status: 201)
        response.headers.add("Set-Cookie", answer.1)
        return response
    }

    /// A link that does not work (any more): the same answer whatever the reason.
    static let unusable = ServiceError.gone("This invitation link is unknown, already used, revoked or past its end; ask for a new one.")

    /// The password a person sets: given, and as `PasswordPolicy` wants it (422 at `/password`).
    static func checkNewPassword(_ password: String?, email: String, errors: FieldErrors) {
        guard let password else {
            errors.add("/password", "Choose a password of at least \(PasswordPolicy.minimumLength) characters to join.")
            return
        }
        if let refusal = PasswordPolicy.refusal(password, email: email) {
            errors.add("/password", refusal)
        }
    }

    /// The person whose live session the request's `linkd_session` cookie carries; nil without one.
    func signedInPerson(_ request: Request) throws -> UUID? {
        let tokens = Authenticator.sessionTokens(request)
        guard !tokens.isEmpty else { return nil }
        return try pool.withConnection { connection in
            try tokens.lazy.compactMap { try SessionStore.find($0, idle: TimeInterval(issuer.configuration.idle), on: connection) }
                .first?.personID
        }
    }
}
