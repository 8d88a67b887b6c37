import Foundation
import HTTPServer
import LinkKit
import Outbound
import Postgres

/// `/v1/invitations`: an owner invites people by email with a role (a one-time link, shown once and, with SMTP,
/// mailed), lists and revokes invitations; the person accepts through the link (`InvitationHandlers+Accept`).
/// docs/PEOPLE.md, "Members and invitations".
struct InvitationHandlers: EndpointGroup {
    /// Request threads' pool.
    let pool: ConnectionPool
    /// The mailer's jobs' pool (off the request threads).
    let mailPool: ConnectionPool
    let mailer: Mailer
    let origin: PublicOrigin
    /// How long an invitation stays valid, in seconds.
    let lifetime: Int
    /// Begins the session an acceptance signs the person in with; its configuration hashes passwords.
    let issuer: SessionIssuer

    static var schemas: [(name: String, schema: Schema)] { APISchemas.invitations }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .POST, "/v1/invitations", "createInvitation", "Invite someone by email with a role", tag: "Invitations", scope: .admin,
                description: """
                    The one-time `link` is in this response only (sent with `Cache-Control: no-store`); with SMTP \
                    configured it is also mailed (`mailed`). Inviting an address again revokes its pending invitations. \
                    Nobody invites with a role above their own (403); a member is not invited again (409).
                    """,
                body: "InvitationCreate", success: .created("CreatedInvitation", etag: false), errors: [409], create),
            Endpoint(
                .GET, "/v1/invitations", "listInvitations", "List the workspace's invitations, accepted and revoked ones included",
                tag: "Invitations", scope: .read, success: .page("Invitation"), list),
            Endpoint(
                .DELETE, "/v1/invitations/{id}", "revokeInvitation", "Revoke a pending invitation: its link stops working",
                tag: "Invitations", scope: .admin,
                description: "An invitation already accepted cannot be revoked (409); remove the member instead.",
                success: .noContent, errors: [409], revoke),
            Endpoint(
                .POST, "/v1/invitations/accept", "acceptInvitation", "Accept an invitation: join the workspace and sign in",
                tag: "Invitations",
                description: """
                    Public: the token is the credential. A new person is created with `password`; a person who has a \
                    password gives it (or is signed in); a person without one sets it. Answers with a session cookie. \
                    A link that is unknown, used, revoked or past its end answers 410.
                    """,
                body: "InvitationAccept", success: .json(201, "WhoAmI", headers: ["Set-Cookie"]), errors: [401, 410],
                accept),
        ]
    }

    func create(_ request: Request, _ principal: Principal) throws -> Response {
        let (email, roleName) = try JSONBody.read(request) {
            (InvitationFields.email.read(&$0, required: true), InvitationFields.role.read(&$0, required: true))
        }
        guard let email, let role = roleName.flatMap(Role.init(rawValue:)) else {
            throw ServiceError.badRequest("The email or the role is missing.")
        }
        try MemberHandlers.mayGive(role, principal)
        let (invitation, token) = try pool.withTransaction { connection in
            if let person = try PersonStore.find(email: email, on: connection),
                try MembershipStore.role(of: person.id, in: principal.workspaceID, on: connection) != nil
            {
                throw ServiceError.conflict("\(email) is already a member; change their role instead.")
            }
            try InvitationStore.revokePending(email: email, workspace: principal.workspaceID, on: connection)
            let created = try InvitationStore.create(
                email: email, role: role, workspace: principal.workspaceID, invitedBy: principal.personID,
                ttl: TimeInterval(lifetime), on: connection)
            try AuditStore.record(
                on: connection, principal, .create, type: "invitation", id: created.0.id.canonicalText, after: created.0.json)
            return created
        }
        let link = OneTimeLinkURLs.invitation(token, base: origin.of(request))
        let mailed = mailer.enqueue("invitation") { [mailPool, from = mailer.from] in
            try mailPool.withConnection { connection in
                let workspace = try WorkspaceStore.name(of: principal.workspaceID, on: connection) ?? "your team"
                return PeopleMail.invitation(
                    from: from, to: email, workspace: workspace, role: role,
                    inviter: try Self.inviterName(principal, on: connection), link: link,
                    expiresAt: invitation.expiresAt)
            }
        }
        let json = JSONValue.object(["invitation": invitation.json, "link": .string(link), "mailed": .bool(mailed)])
        var response = Response.json(json.serializedBytes, status: 201)
        response.headers.replaceOrAdd("Location", "/v1/invitations/\(invitation.id.canonicalText)")
        return response
    }

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        let page = try Page(request)
        let rows = try pool.withConnection { try InvitationStore.page(page, of: principal.workspaceID, on: $0) }
        return page.response(request, items: rows.map { ($0.json, $0.sortMicros, $0.id) })
    }

    func revoke(_ request: Request, _ principal: Principal) throws -> Response {
        guard let id = UUID(uuidString: request.pathParameter(.id)) else { throw ServiceError.notFound("The invitation") }
        try pool.withTransaction { connection in
            guard let before = try InvitationStore.find(id, of: principal.workspaceID, forUpdate: true, on: connection) else {
                throw ServiceError.notFound("The invitation")
            }
            guard before.acceptedAt == nil else {
                throw ServiceError.conflict("The invitation was accepted; remove the member instead.")
            }
            guard let after = try InvitationStore.revoke(id, workspace: principal.workspaceID, on: connection) else {
                throw ServiceError.notFound("The invitation")
            }
            try AuditStore.record(
                on: connection, principal, .delete, type: "invitation", id: id.canonicalText, before: before.json, after: after.json)
        }
        return .empty()
    }

    /// How a mail names who invited: a person by name and address, a key by its name.
    static func inviterName(_ principal: Principal, on connection: Connection) throws -> String {
        if let personID = principal.personID, let person = try PersonStore.find(personID, on: connection) {
            return person.name.isEmpty ? person.email : "\(person.name) (\(person.email))"
        }
        if let keyID = principal.keyID, let key = try KeyStore.find(keyID, of: principal.workspaceID, on: connection) {
            return key.name.isEmpty ? "An API key" : "The API key \"\(key.name)\""
        }
        return "An owner"
    }
}
