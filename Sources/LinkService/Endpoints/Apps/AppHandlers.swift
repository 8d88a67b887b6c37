import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/apps`: iOS and Android apps of a workspace.
struct AppHandlers: Sendable {
    let pool: ConnectionPool
    let auth: Authenticator
    let changes: CatalogChanges

    private var endpoints: ResourceEndpoints { ResourceEndpoints(changes: changes) }

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
        return try endpoints.create(principal) { connection, _ in
            if let teamID = input.teamID {
                try requireTeam(teamID, principal, on: connection)
            }
            try rejectDuplicate(input, platform: platform!, principal, excluding: nil, on: connection)
            if let hostname = input.primaryDomain {
                _ = try AppPrimaryDomain.id(of: hostname, app: nil, workspace: principal.workspaceID, on: connection)
            }
            return try AppStore.insert(input, platform: platform!, workspace: principal.workspaceID, on: connection)
        }
    }

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        try endpoints.list(request) { page, connection in
            let platform = request.query("platform")
            guard let platform else { return try AppStore.page(page, workspace: principal.workspaceID, platform: nil, on: connection) }
            guard let known = AppPlatform(rawValue: platform) else { throw ServiceError.badRequest("platform must be 'ios' or 'android'.") }
            return try AppStore.page(page, workspace: principal.workspaceID, platform: known, on: connection)
        }
    }

    func get(_ request: Request, _ principal: Principal) throws -> Response {
        try endpoints.get { try AppHandlers.find(request.parameters["id"], principal, on: $0) }
    }

    func update(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        return try endpoints.update(request, principal, find: {
            try AppHandlers.find(request.parameters["id"], principal, on: $0, forUpdate: true)
        }, check: { before, _ -> AppInput in
            if let sent = body.string("platform"), sent != before.platform.rawValue {   // null reads as absent
                errors.add("/platform", "The platform of an app cannot be changed; register a new app.")
            }
            let input = AppInput(reading: &body, platform: before.platform, creating: false)
            body.finish()
            try errors.check()
            return input
        }, save: { before, input, connection, changed in
            var after = before
            input.apply(to: &after, body: body)
            if body.has("primaryDomain") {
                after.primaryDomainID = try input.primaryDomain.map {
                    try AppPrimaryDomain.id(of: $0, app: after.id, workspace: principal.workspaceID, on: connection)
                }
            }
            if let teamID = input.teamID { try requireTeam(teamID, principal, on: connection) }
            try rejectDuplicate(AppInput(from: after), platform: after.platform, principal, excluding: after.id, on: connection)
            let updated = try AppStore.save(after, on: connection)
            try changed.appChanged(updated.id, on: connection)
            return updated
        })
    }

    func delete(_ request: Request, _ principal: Principal) throws -> Response {
        try endpoints.delete(request, principal, find: {
            try AppHandlers.find(request.parameters["id"], principal, on: $0, forUpdate: true)
        }, remove: { app, connection, _ in
            let uses = try AppStore.hostnames(using: app.id, on: connection)
            if !uses.isEmpty {
                throw ServiceError.conflict("The app is used by the domain(s) \(uses.sorted().joined(separator: ", ")); remove it from their rules and settings first.")
            }
            try AppStore.delete(app.id, on: connection)
        })
    }

    /// The app named by `id` in the caller's workspace; 404 for anything else (including malformed ids).
    static func find(_ id: String?, _ principal: Principal, on connection: Connection, forUpdate: Bool = false) throws -> App {
        guard let id = id.flatMap(UUID.init(uuidString:)),
              let app = try AppStore.find(id, of: principal.workspaceID, forUpdate: forUpdate, on: connection)
        else { throw ServiceError.notFound("The app") }
        return app
    }

    private func requireTeam(_ teamID: String, _ principal: Principal, on connection: Connection) throws {
        if try !TeamStore.exists(teamID, workspace: principal.workspaceID, on: connection) {
            throw ServiceError.validation([.init(pointer: "/teamId", detail: "The team \(teamID) is not registered in this workspace; create it with POST /v1/teams first.")])
        }
    }

    private func rejectDuplicate(_ input: AppInput, platform: AppPlatform, _ principal: Principal, excluding id: UUID?, on connection: Connection) throws {
        if try AppStore.hasDuplicate(of: input, workspace: principal.workspaceID, excluding: id, on: connection) {
            throw ServiceError.conflict(platform == .ios
                ? "An iOS app \(input.teamID ?? "").\(input.bundleID ?? "") is already registered in this workspace."
                : "An Android app \(input.packageName ?? "") is already registered in this workspace.")
        }
    }
}
