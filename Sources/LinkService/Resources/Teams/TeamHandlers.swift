import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/teams`: the Apple team IDs of a workspace, addressed by the team ID itself.
struct TeamHandlers: Sendable {
    let pool: ConnectionPool
    let auth: Authenticator

    func register(in routes: inout RouterBuilder) {
        routes.add(.POST, "/v1/teams", scope: .write, auth: auth, create)
        routes.add(.GET, "/v1/teams", scope: .read, auth: auth, list)
        routes.add(.GET, "/v1/teams/{teamId}", scope: .read, auth: auth, get)
        routes.add(.PATCH, "/v1/teams/{teamId}", scope: .write, auth: auth, update)
        routes.add(.DELETE, "/v1/teams/{teamId}", scope: .write, auth: auth, delete)
    }

    func create(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        let teamID = Validators.teamID(body.string("teamId", required: true), at: "/teamId", errors)
        let name = body.string("name", required: true, limit: .name)
        body.finish()
        try errors.check()
        let team = try pool.withTransaction { connection -> Team in
            let exists = try connection.query("SELECT 1 FROM teams WHERE workspace_id = \(principal.workspaceID) AND team_id = \(teamID!)")
            if exists.count > 0 { throw ServiceError.conflict("The team \(teamID!) is already registered.") }
            let row = try connection.query(Query(unsafeSQL: """
                INSERT INTO teams (workspace_id, team_id, name) VALUES ($1, $2, $3) RETURNING \(Team.columns)
                """, binds: [principal.workspaceID, teamID!, name!])).first!
            let team = try Team(row: row)
            try AuditLog.record(on: connection, principal, .create, type: "team", id: team.teamID, after: team.json)
            return team
        }
        return .resource(team.json, version: team.version, status: 201, location: team.location)
    }

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        let page = try Page(request)
        let teams = try pool.withConnection { connection in
            try page.rows(of: "teams", columns: Team.columns, where: "workspace_id = $1", binds: [principal.workspaceID], on: connection, decode: Team.init(row:))
        }
        return page.response(request, items: teams.map { ($0.json, $0.sortMicros, $0.id) })
    }

    func get(_ request: Request, _ principal: Principal) throws -> Response {
        let team = try pool.withConnection { try find(request, principal, on: $0) }
        return .resource(team.json, version: team.version)
    }

    func update(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        if body.has("teamId") {
            _ = body.value("teamId")
            errors.add("/teamId", "A team ID cannot be changed; register the new team and move the apps to it.")
        }
        let name = body.string("name", limit: .name)
        body.finish()
        try errors.check()
        let team = try pool.withTransaction { connection -> Team in
            let before = try find(request, principal, on: connection, forUpdate: true)
            try ETag.check(request, current: before.version)
            let row = try connection.query(Query(unsafeSQL: """
                UPDATE teams SET name = coalesce($2, name), version = version + 1, updated_at = now()
                WHERE id = $1 RETURNING \(Team.columns)
                """, binds: [before.id, name])).first!
            let after = try Team(row: row)
            try AuditLog.record(on: connection, principal, .update, type: "team", id: after.teamID, before: before.json, after: after.json)
            return after
        }
        return .resource(team.json, version: team.version)
    }

    func delete(_ request: Request, _ principal: Principal) throws -> Response {
        try pool.withTransaction { connection in
            let team = try find(request, principal, on: connection, forUpdate: true)
            try ETag.check(request, current: team.version)
            let apps = try connection.query("SELECT count(*) FROM apps WHERE workspace_id = \(principal.workspaceID) AND team_id = \(team.teamID)")
            let count = try apps.first!.decode(0, as: Int.self)
            if count > 0 { throw ServiceError.conflict("The team \(team.teamID) still has \(count) app(s); delete or move them first.") }
            try connection.execute("DELETE FROM teams WHERE id = \(team.id)")
            try AuditLog.record(on: connection, principal, .delete, type: "team", id: team.teamID, before: team.json)
        }
        return .empty()
    }

    /// The team named by the path, in the caller's workspace only; 404 otherwise.
    private func find(_ request: Request, _ principal: Principal, on connection: Connection, forUpdate: Bool = false) throws -> Team {
        let teamID = request.parameters["teamId"] ?? ""
        let row = try connection.query(Query(unsafeSQL: """
            SELECT \(Team.columns) FROM teams WHERE workspace_id = $1 AND team_id = $2 \(forUpdate ? "FOR UPDATE" : "")
            """, binds: [principal.workspaceID, teamID])).first
        guard let row else { throw ServiceError.notFound("The team '\(teamID)'") }
        return try Team(row: row)
    }
}
