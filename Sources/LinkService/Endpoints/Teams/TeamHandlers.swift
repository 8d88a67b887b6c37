import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/teams`: the Apple team IDs of a workspace, addressed by the team ID itself.
struct TeamHandlers: EndpointGroup {
    let changes: CatalogChanges

    private var resource: ResourceEndpoints { ResourceEndpoints(changes: changes) }

    static var schemas: [(name: String, schema: Schema)] { APISchemas.teams }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .POST, "/v1/teams", "createTeam", "Register an Apple team ID", tag: "Teams", scope: .write,
                body: "TeamCreate", success: .created("Team"), errors: [409], create),
            Endpoint(.GET, "/v1/teams", "listTeams", "List team IDs", tag: "Teams", scope: .read, success: .page("Team"), list),
            Endpoint(.GET, "/v1/teams/{teamId}", "getTeam", "Read a team", tag: "Teams", scope: .read, success: .resource("Team"), get),
            Endpoint(
                .PATCH, "/v1/teams/{teamId}", "updateTeam", "Rename a team", tag: "Teams", scope: .write,
                ifMatch: true, body: "TeamUpdate", success: .resource("Team"), update),
            Endpoint(
                .DELETE, "/v1/teams/{teamId}", "deleteTeam", "Delete a team that no app uses", tag: "Teams", scope: .write,
                ifMatch: true, success: .noContent, errors: [409], delete),
        ]
    }

    func create(_ request: Request, _ principal: Principal) throws -> Response {
        let (teamID, name) = try JSONBody.read(request) { body in
            (TeamFields.teamID.read(&body, required: true), TeamFields.name.read(&body, required: true))
        }
        return try resource.create(principal, location: { location("getTeam", [.teamID: $0.teamID]) }) { connection, _ in
            if try TeamStore.exists(teamID!, workspace: principal.workspaceID, on: connection) {
                throw ServiceError.conflict("The team \(teamID!) is already registered.")
            }
            return try TeamStore.insert(teamID!, name: name!, workspace: principal.workspaceID, on: connection)
        }
    }

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        try resource.list(request) { page, connection in
            try TeamStore.page(page, of: principal.workspaceID, on: connection)
        }
    }

    func get(_ request: Request, _ principal: Principal) throws -> Response {
        try resource.get { try find(request, principal, on: $0) }
    }

    func update(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        if body.has(TeamFields.teamID.name) {
            _ = body.value(TeamFields.teamID.name)
            errors.add("/teamId", "A team ID cannot be changed; register the new team and move the apps to it.")
        }
        let name = TeamFields.name.read(&body)
        body.finish()
        try errors.check()
        return try resource.update(
            request, principal, find: { try find(request, principal, on: $0, forUpdate: true) },
            check: { _, _ in name }
        ) { before, name, connection, _ in
            try TeamStore.rename(before.id, to: name, on: connection)
        }
    }

    func delete(_ request: Request, _ principal: Principal) throws -> Response {
        try resource.delete(request, principal, find: { try find(request, principal, on: $0, forUpdate: true) }) { team, connection, _ in
            let count = try TeamStore.appCount(team.teamID, workspace: principal.workspaceID, on: connection)
            if count > 0 { throw ServiceError.conflict("The team \(team.teamID) still has \(count) app(s); delete or move them first.") }
            try TeamStore.delete(team.id, on: connection)
        }
    }

    /// The team named by the path, in the caller's workspace only; 404 otherwise.
    private func find(_ request: Request, _ principal: Principal, on connection: Connection, forUpdate: Bool = false) throws -> Team {
        let teamID = request.pathParameter(.teamID)
        guard let team = try TeamStore.find(teamID, of: principal.workspaceID, forUpdate: forUpdate, on: connection) else {
            throw ServiceError.notFound("The team '\(teamID)'")
        }
        return team
    }
}
