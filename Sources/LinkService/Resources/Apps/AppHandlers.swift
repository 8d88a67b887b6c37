import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/apps`: iOS and Android apps of a workspace.
struct AppHandlers: Sendable {
    let pool: ConnectionPool
    let auth: Authenticator
    let changes: CatalogChanges

    func register(in routes: inout RouterBuilder) {
        routes.add(.POST, "/v1/apps", scope: .write, auth: auth, create)
        routes.add(.GET, "/v1/apps", scope: .read, auth: auth, list)
        routes.add(.GET, "/v1/apps/{id}", scope: .read, auth: auth, get)
        routes.add(.PATCH, "/v1/apps/{id}", scope: .write, auth: auth, update)
        routes.add(.DELETE, "/v1/apps/{id}", scope: .write, auth: auth, delete)
    }

    func create(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        let platformName = body.string("platform", required: true)
        let platform = platformName.flatMap(AppPlatform.init(rawValue:))
        if platformName != nil, platform == nil { errors.add("/platform", "platform must be 'ios' or 'android'.") }
        let input = AppInput(reading: &body, platform: platform, creating: true)
        body.finish()
        try errors.check()
        let app = try pool.withTransaction { connection -> App in
            if let teamID = input.teamID {
                try requireTeam(teamID, principal, on: connection)
            }
            try rejectDuplicate(input, platform: platform!, principal, excluding: nil, on: connection)
            let row = try connection.query(Query(unsafeSQL: """
                INSERT INTO apps (workspace_id, platform, name, team_id, bundle_id, app_store_id, custom_scheme,
                                  package_name, sha256_cert_fingerprints, play_store_url)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING \(App.columns)
                """, binds: [principal.workspaceID, platform!.rawValue, input.name!, input.teamID, input.bundleID, input.appStoreID,
                             input.customScheme, input.packageName, JSONB(input.fingerprintsJSON.serialized), input.playStoreURL])).first!
            let app = try App(row: row)
            try AuditLog.record(on: connection, principal, .create, type: "app", id: app.id.canonicalText, after: app.json)
            return app
        }
        return .resource(app.json, version: app.version, status: 201, location: app.location)
    }

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        let page = try Page(request)
        let platform = request.query("platform")
        if let platform, AppPlatform(rawValue: platform) == nil {
            throw ServiceError.badRequest("platform must be 'ios' or 'android'.")
        }
        let apps = try pool.withConnection { connection in
            try page.rows(of: "apps", columns: App.columns, where: "workspace_id = $1 AND ($2::text IS NULL OR platform = $2)", binds: [principal.workspaceID, platform], on: connection, decode: App.init(row:))
        }
        return page.response(request, items: apps.map { ($0.json, $0.sortMicros, $0.id) })
    }

    func get(_ request: Request, _ principal: Principal) throws -> Response {
        let app = try pool.withConnection { try AppHandlers.find(request.parameters["id"], principal, on: $0) }
        return .resource(app.json, version: app.version)
    }

    func update(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        let app = try changes.commit { connection, changed -> App in
            let before = try AppHandlers.find(request.parameters["id"], principal, on: connection, forUpdate: true)
            if let sent = body.string("platform"), sent != before.platform.rawValue {   // null reads as absent
                errors.add("/platform", "The platform of an app cannot be changed; register a new app.")
            }
            let input = AppInput(reading: &body, platform: before.platform, creating: false)
            body.finish()
            try errors.check()
            try ETag.check(request, current: before.version)
            var after = before
            input.apply(to: &after, body: body)
            if let teamID = input.teamID { try requireTeam(teamID, principal, on: connection) }
            try rejectDuplicate(AppInput(from: after), platform: after.platform, principal, excluding: after.id, on: connection)
            let row = try connection.query(Query(unsafeSQL: """
                UPDATE apps SET name = $2, team_id = $3, bundle_id = $4, app_store_id = $5, custom_scheme = $6,
                       package_name = $7, sha256_cert_fingerprints = $8, play_store_url = $9,
                       version = version + 1, updated_at = now()
                WHERE id = $1 RETURNING \(App.columns)
                """, binds: [after.id, after.name, after.teamID, after.bundleID, after.appStoreID, after.customScheme,
                             after.packageName, JSONB(after.fingerprintsJSON.serialized), after.playStoreURL])).first!
            let updated = try App(row: row)
            try AuditLog.record(on: connection, principal, .update, type: "app", id: updated.id.canonicalText, before: before.json, after: updated.json)
            try changed.appChanged(updated.id, on: connection)
            return updated
        }
        return .resource(app.json, version: app.version)
    }

    func delete(_ request: Request, _ principal: Principal) throws -> Response {
        try pool.withTransaction { connection in
            let app = try AppHandlers.find(request.parameters["id"], principal, on: connection, forUpdate: true)
            try ETag.check(request, current: app.version)
            let uses = try connection.query("""
                SELECT d.hostname FROM rule_apps ra JOIN rules r ON r.id = ra.rule_id JOIN domains d ON d.id = r.domain_id
                WHERE ra.app_id = \(app.id)
                UNION
                SELECT hostname FROM domains
                WHERE workspace_id = \(principal.workspaceID)
                  AND (settings -> 'webcredentials' ? \(app.id.canonicalText) OR settings -> 'appclips' ? \(app.id.canonicalText))
                """).map { try $0.decode(0, as: String.self) }
            if !uses.isEmpty {
                throw ServiceError.conflict("The app is used by the domain(s) \(uses.sorted().joined(separator: ", ")); remove it from their rules and settings first.")
            }
            try connection.execute("DELETE FROM apps WHERE id = \(app.id)")
            try AuditLog.record(on: connection, principal, .delete, type: "app", id: app.id.canonicalText, before: app.json)
        }
        return .empty()
    }

    /// The app named by `id` in the caller's workspace; 404 for anything else (including malformed ids).
    static func find(_ id: String?, _ principal: Principal, on connection: Connection, forUpdate: Bool = false) throws -> App {
        guard let id = id.flatMap(UUID.init(uuidString:)) else { throw ServiceError.notFound("The app") }
        let row = try connection.query(Query(unsafeSQL: """
            SELECT \(App.columns) FROM apps WHERE id = $1 AND workspace_id = $2 \(forUpdate ? "FOR UPDATE" : "")
            """, binds: [id, principal.workspaceID])).first
        guard let row else { throw ServiceError.notFound("The app") }
        return try App(row: row)
    }

    private func requireTeam(_ teamID: String, _ principal: Principal, on connection: Connection) throws {
        let found = try connection.query("SELECT 1 FROM teams WHERE workspace_id = \(principal.workspaceID) AND team_id = \(teamID)")
        if found.count == 0 {
            throw ServiceError.validation([.init(pointer: "/teamId", detail: "The team \(teamID) is not registered in this workspace; create it with POST /v1/teams first.")])
        }
    }

    private func rejectDuplicate(_ input: AppInput, platform: AppPlatform, _ principal: Principal, excluding id: UUID?, on connection: Connection) throws {
        let existing = try connection.query(Query(unsafeSQL: """
            SELECT id FROM apps WHERE workspace_id = $1 AND id IS DISTINCT FROM $2
              AND ((platform = 'ios' AND team_id = $3 AND lower(bundle_id) = lower($4)) OR (platform = 'android' AND package_name = $5))
            """, binds: [principal.workspaceID, id, input.teamID, input.bundleID, input.packageName]))
        if existing.count > 0 {
            throw ServiceError.conflict(platform == .ios
                ? "An iOS app \(input.teamID ?? "").\(input.bundleID ?? "") is already registered in this workspace."
                : "An Android app \(input.packageName ?? "") is already registered in this workspace.")
        }
    }
}
