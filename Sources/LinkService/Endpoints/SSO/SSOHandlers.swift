import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/sso`: a workspace's single sign-on settings (docs/PEOPLE.md, "Single sign-on"), read and changed by its
/// owners only. The client secret is sealed with the webhook secrets' keys (`WebhookSecretKeys`, the workspace's
/// id as additional data) and never answered.
struct SSOHandlers: EndpointGroup {
    let pool: ConnectionPool
    let providers: OpenIDProviders
    /// The keys sealing the client secrets (`--webhook-secret-key`); nil: settings cannot be saved.
    let keys: WebhookSecretKeys?
    /// Where linkd is reached: the redirect URI shown is on it.
    let origin: PublicOrigin

    static var schemas: [(name: String, schema: Schema)] { APISchemas.sso }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .GET, "/v1/sso", "getSSO", "Read the workspace's single sign-on", tag: "Single sign-on", scope: .admin,
                description: "Owners only. `redirectUri` is the callback to register at the provider.",
                success: .json(200, "SSO"), errors: [404], get),
            Endpoint(
                .PUT, "/v1/sso", "setSSO", "Set the workspace's single sign-on", tag: "Single sign-on", scope: .admin,
                description: "Owners only. Replaces every setting; `clientSecret` may be left out to keep the stored one.",
                body: "SSOSettings", success: .json(200, "SSO"), errors: [503], set),
            Endpoint(
                .DELETE, "/v1/sso", "deleteSSO", "Remove the workspace's single sign-on", tag: "Single sign-on", scope: .admin,
                description: "Owners only. Members sign in with passwords again; sign-ins under way fail.",
                success: .noContent, errors: [404], delete),
        ]
    }

    func get(_ request: Request, _ principal: Principal) throws -> Response {
        try Self.requireOwner(principal)
        let settings = try pool.withConnection { try SSOStore.find(principal.workspaceID, on: $0) }
        guard let settings else { throw ServiceError.notFound("The workspace's single sign-on") }
        return .json(settings.json(redirectURI: SSOSignInHandlers.redirectURI(request, origin: origin)).serializedBytes)
    }

    func set(_ request: Request, _ principal: Principal) throws -> Response {
        try Self.requireOwner(principal)
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        let issuer = SSOFields.issuer.read(&body, required: true)
        let clientID = SSOFields.clientID.read(&body, required: true)
        let secret = SSOFields.clientSecret.read(&body)
        let allowedDomains = SSOFields.allowedDomains.read(&body) ?? []
        let defaultRole = SSOFields.defaultRole.read(&body).flatMap(Role.init(rawValue:))
        let groupsClaim = SSOFields.groupsClaim.read(&body)
        let groupRoles = SSOFields.groupRoles.read(&body) ?? [:]
        let required = SSOFields.required.read(&body) ?? false
        body.finish()
        if let issuer, let refusal = providers.refusal(ofIssuer: issuer) { errors.add("/issuer", refusal) }
        if clientID?.isEmpty == true { errors.add("/clientId", "The client id is empty.") }
        if secret?.isEmpty == true { errors.add("/clientSecret", "The client secret is empty.") }
        if groupsClaim?.isEmpty == true { errors.add("/groupsClaim", "The claim name is empty.") }
        if !groupRoles.isEmpty && groupsClaim == nil { errors.add("/groupsClaim", "Name the claim the mapped groups are read from.") }
        try errors.check()
        guard let keys else {
            throw Problem.serviceUnavailable(
                detail: "No key to seal the client secret is configured (--webhook-secret-key).",
                retryAfter: nil)
        }
        let saved = try pool.withTransaction { connection in
            let before = try SSOStore.find(principal.workspaceID, forUpdate: true, on: connection)
            let sealed: (bytes: [UInt8], keyID: String)
            if let secret {
                sealed = (keys.seal(Array(secret.utf8), for: principal.workspaceID), keys.sealingID)
            } else if let before {
                sealed = (before.clientSecretSealed, before.clientSecretKeyID)
            } else {
                throw ServiceError.validation([.init(pointer: "/clientSecret", detail: "'clientSecret' is required the first time.")])
            }
            let settings = SSOStore.Settings(
                issuer: issuer!, clientID: clientID!, clientSecretSealed: sealed.bytes,
                clientSecretKeyID: sealed.keyID, allowedDomains: allowedDomains, defaultRole: defaultRole,
                groupsClaim: groupsClaim,
                groupRoles: groupRoles, required: required)
            let saved = try SSOStore.save(settings, of: principal.workspaceID, on: connection)
            try AuditStore.record(
                on: connection, principal, before == nil ? .create : .update, type: WorkspaceSSO.auditType,
                id: principal.workspaceID.canonicalText, before: before?.auditJSON, after: saved.auditJSON)
            return saved
        }
        return .json(saved.json(redirectURI: SSOSignInHandlers.redirectURI(request, origin: origin)).serializedBytes)
    }

    func delete(_ request: Request, _ principal: Principal) throws -> Response {
        try Self.requireOwner(principal)
        try pool.withTransaction { connection in
            guard let before = try SSOStore.find(principal.workspaceID, forUpdate: true, on: connection) else {
                throw ServiceError.notFound("The workspace's single sign-on")
            }
            try SSOStore.delete(principal.workspaceID, on: connection)
            try AuditStore.record(
                on: connection, principal, .delete, type: WorkspaceSSO.auditType, id: principal.workspaceID.canonicalText,
                before: before.auditJSON)
        }
        return .empty()
    }

    /// Single sign-on is an owner's: a person acting as an owner, or an admin key (keys act as `admin` at most
    /// until the roles' declarations let a key be given `owner`: docs/PEOPLE.md, "Roles").
    static func requireOwner(_ principal: Principal) throws {
        guard principal.role == .owner || (principal.personID == nil && principal.keyID != nil && principal.scope == .admin) else {
            throw ServiceError.forbidden("Only the workspace's owners manage its single sign-on.")
        }
    }
}
