import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/members`: the people of the caller's workspace, their roles, and their removal (docs/PEOPLE.md, "Members
/// and invitations"). The last owner can be neither removed nor demoted; removing a member ends their sessions
/// at once.
struct MemberHandlers: EndpointGroup {
    let pool: ConnectionPool
    /// How a role changed or a member removed reaches every node's sessions at once (`sessionsChanged`).
    let changes: CatalogChanges

    static var schemas: [(name: String, schema: Schema)] { APISchemas.members }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .GET, "/v1/members", "listMembers", "List the workspace's members and their roles", tag: "Members", scope: .read,
                success: .page("Member"), list),
            Endpoint(
                .PATCH, "/v1/members/{personId}", "updateMember", "Change a member's role", tag: "Members", scope: .admin,
                description: "Nobody gives a role above their own. The last owner cannot be demoted (409).",
                body: "MemberUpdate", success: .json(200, "Member"), errors: [409], update),
            Endpoint(
                .DELETE, "/v1/members/{personId}", "removeMember", "Remove a member; their sessions end at once", tag: "Members",
                scope: .admin,
                description: "The person keeps their account and their other workspaces. The last owner cannot be removed (409).",
                success: .noContent, errors: [409], remove),
        ]
    }

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        let page = try Page(request)
        let members = try pool.withConnection { try MembershipStore.members(of: principal.workspaceID, page: page, on: $0) }
        return page.response(request, items: members.map { ($0.json, $0.sortMicros, $0.person.id) })
    }

    func update(_ request: Request, _ principal: Principal) throws -> Response {
        let person = try Self.personID(request)
        let role = try JSONBody.read(request) { InvitationFields.role.read(&$0, required: true) }.flatMap(Role.init(rawValue:))
        guard let role else { throw ServiceError.badRequest("The role is missing.") }
        try Self.mayGive(role, principal)
        let after = try changes.commit { connection, changed in
            let owners = try MembershipStore.lockOwners(of: principal.workspaceID, on: connection)
            guard let member = try MembershipStore.member(person, of: principal.workspaceID, on: connection) else {
                throw ServiceError.notFound("The member")
            }
            if member.role == .owner, role != .owner, owners.subtracting([person]).isEmpty {
                throw ServiceError.conflict("\(member.person.email) is the workspace's last owner: make someone else owner first.")
            }
            try MembershipStore.set(person, of: principal.workspaceID, role: role, on: connection)
            try changed.sessionsChanged(person: person, on: connection)
            guard let after = try MembershipStore.member(person, of: principal.workspaceID, on: connection) else {
                throw ServiceError.notFound("The member")
            }
            try AuditStore.record(
                on: connection, principal, .update, type: "member", id: person.canonicalText, before: member.json, after: after.json)
            return after
        }
        return Response.json(after.json.serializedBytes)
    }

    func remove(_ request: Request, _ principal: Principal) throws -> Response {
        let person = try Self.personID(request)
        try changes.commit { connection, changed in
            let owners = try MembershipStore.lockOwners(of: principal.workspaceID, on: connection)
            guard let member = try MembershipStore.member(person, of: principal.workspaceID, on: connection) else {
                throw ServiceError.notFound("The member")
            }
            if member.role == .owner, owners.subtracting([person]).isEmpty {
                throw ServiceError.conflict("\(member.person.email) is the workspace's last owner: make someone else owner first.")
            }
            try MembershipStore.remove(person, from: principal.workspaceID, on: connection)
            try SessionStore.revokeAll(of: person, on: connection)
            try changed.sessionsChanged(person: person, on: connection)
            try AuditStore.record(on: connection, principal, .delete, type: "member", id: person.canonicalText, before: member.json)
        }
        return .empty()
    }

    static func personID(_ request: Request) throws -> UUID {
        guard let id = UUID(uuidString: request.pathParameter(.personID)) else { throw ServiceError.notFound("The member") }
        return id
    }

    /// Nobody gives a role above the one they act as (403).
    static func mayGive(_ role: Role, _ principal: Principal) throws {
        guard role <= principal.role else {
            throw ServiceError.forbidden("You act as \(principal.role.rawValue): you cannot give the \(role.rawValue) role.")
        }
    }
}
