import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/apps`: iOS and Android apps of a workspace.
struct AppHandlers: EndpointGroup {
    let changes: CatalogChanges

    private var resource: ResourceEndpoints { ResourceEndpoints(changes: changes) }

    private static let platform = QueryParameter("platform", .enumeration(["ios", "android"]), "Only apps of this platform.")

    static var schemas: [(name: String, schema: Schema)] { APISchemas.apps }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .POST, "/v1/apps", "createApp", "Register an iOS or Android app", tag: "Apps", scope: .write,
                description: "iOS apps need a team registered in the workspace; the app ID `TEAMID.bundle.id` is derived.",
                body: "AppCreate", success: .created("App"), errors: [409], create),
            Endpoint(
                .GET, "/v1/apps", "listApps", "List apps", tag: "Apps", scope: .read,
                query: [Self.platform],
                success: .page("App"), list),
            Endpoint(.GET, "/v1/apps/{id}", "getApp", "Read an app", tag: "Apps", scope: .read, success: .resource("App"), get),
            Endpoint(
                .PATCH, "/v1/apps/{id}", "updateApp", "Change an app", tag: "Apps", scope: .write,
                ifMatch: true, body: "AppUpdate", success: .resource("App"), errors: [409], update),
            Endpoint(
                .DELETE, "/v1/apps/{id}", "deleteApp", "Delete an app that no rule or domain uses", tag: "Apps", scope: .write,
                ifMatch: true, success: .noContent, errors: [409], delete),
        ]
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
        return try resource.create(principal, location: { location("getApp", [.id: $0.id.canonicalText]) }) { connection, _ in
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
        try resource.list(request) { page, connection in
            let platform = try Self.platform.value(in: request).flatMap(AppPlatform.init(rawValue:))
            return try AppStore.page(page, workspace: principal.workspaceID, platform: platform, on: connection)
        }
    }

    func get(_ request: Request, _ principal: Principal) throws -> Response {
        try resource.get { try AppHandlers.find(request.pathParameter(.id), principal, on: $0) }
    }

    func update(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        return try resource.update(
            request, principal,
            find: {
                // (`FOR NO KEY UPDATE`: a rules change naming the app may go on beside it, `AssociationVersionRecorder`.)
                try AppHandlers.find(request.pathParameter(.id), principal, on: $0, forUpdate: true, keepingKey: true)
            },
            check: { before, _ -> AppInput in
                if let sent = body.string("platform"), sent != before.platform.rawValue { // null reads as absent
                    errors.add("/platform", "The platform of an app cannot be changed; register a new app.")
                }
                let input = AppInput(reading: &body, platform: before.platform, creating: false)
                body.finish()
                try errors.check()
                return input
            },
            save: { before, input, connection, changed in
                var after = before
                input.apply(to: &after, body: body)
                if body.has("primaryDomain") {
                    after.primaryDomainID = try input.primaryDomain.map {
                        try AppPrimaryDomain.id(of: $0, app: after.id, workspace: principal.workspaceID, on: connection)
                    }
                }
                if let teamID = input.teamID { try requireTeam(teamID, principal, on: connection) }
                var identity = AppInput(from: after)
                if !body.has(AppFields.customScheme.name) { identity.customScheme = nil } // a scheme is checked when it is set
                try rejectDuplicate(identity, platform: after.platform, principal, excluding: after.id, on: connection)
                let updated = try AppStore.save(after, on: connection)
                try changed.appChanged(updated.id, on: connection)
                return updated
            })
    }

    func delete(_ request: Request, _ principal: Principal) throws -> Response {
        try resource.delete(
            request, principal,
            find: {
                try AppHandlers.find(request.pathParameter(.id), principal, on: $0, forUpdate: true)
            },
            remove: { app, connection, _ in
                let uses = try AppStore.hostnames(using: app.id, on: connection)
                if !uses.isEmpty {
                    throw ServiceError.conflict(
                        "The app is used by the domain(s) \(uses.sorted().joined(separator: ", ")); remove it from their rules and settings first."
                    )
                }
                let links = try LinkStore.leading(to: app.id, type: nil, on: connection)
                if links.count > 0 {
                    throw ServiceError.conflict("The app is opened by \(links); delete or change the links first.")
                }
                try AppStore.delete(app.id, on: connection)
            })
    }

    /// The app named by `id` in the caller's workspace; 404 for anything else (including malformed ids).
    static func find(
        _ id: String?, _ principal: Principal, on connection: Connection, forUpdate: Bool = false,
        keepingKey: Bool = false
    ) throws -> App {
        guard let id = id.flatMap(UUID.init(uuidString:)),
            let app = try AppStore.find(id, of: principal.workspaceID, forUpdate: forUpdate, keepingKey: keepingKey, on: connection)
        else { throw ServiceError.notFound("The app") }
        return app
    }

    private func requireTeam(_ teamID: String, _ principal: Principal, on connection: Connection) throws {
        if try !TeamStore.exists(teamID, workspace: principal.workspaceID, on: connection) {
            throw ServiceError.validation([
                .init(
                    pointer: "/teamId",
                    detail: "The team \(teamID) is not registered in this workspace; create it with POST /v1/teams first.")
            ])
        }
    }

    private func rejectDuplicate(
        _ input: AppInput, platform: AppPlatform, _ principal: Principal, excluding id: UUID?, on connection: Connection
    ) throws {
        if try AppStore.hasDuplicate(of: input, workspace: principal.workspaceID, excluding: id, on: connection) {
            throw ServiceError.conflict(
                platform == .ios
                    ? "An iOS app \(input.teamID ?? "").\(input.bundleID ?? "") is already registered in this workspace."
                    : "An Android app \(input.packageName ?? "") is already registered in this workspace.")
        }
        if let scheme = input.customScheme,
            let other = try AppStore.schemeOwner(
                scheme, platform: platform, workspace: principal.workspaceID, excluding: id, on: connection)
        {
            let name = platform == .ios ? "iOS" : "Android"
            throw ServiceError.conflict(
                "The \(name) app '\(other)' already registered the scheme \(scheme): a scheme opens one app per platform.")
        }
    }
}
