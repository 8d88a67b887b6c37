import Foundation
import HTTPServer
import LinkKit
import OpenID
import Postgres

/// Signing in through a workspace's identity provider (docs/PEOPLE.md, "Single sign-on"): `start` sends the
/// browser to the provider with PKCE, `state` and `nonce` (kept server-side in `sso_attempts`, single use,
/// short-lived; the state also in a cookie of this browser), `callback` redeems the code, verifies the ID token
/// (`OpenID`), finds or adds the person by their verified email, gives the membership its role, begins a
/// session and sends the browser to the console.
struct SSOSignInHandlers: EndpointGroup {
    let pool: ConnectionPool
    let providers: OpenIDProviders
    let keys: WebhookSecretKeys?
    let configuration: SSOConfiguration
    /// Begins the session of a person the provider vouched for, as every sign-in does.
    let issuer: SessionIssuer
    let origin: PublicOrigin

    static let stateCookie = "linkd_sso_state"
    static let callbackPath = "/v1/sso/callback"
    static let workspace = QueryParameter(
        "workspace", Schema.string(minLength: 1, maxLength: TextLimit.workspaceName.scalars),
        "The name of the workspace to sign in to.", required: true)

    static var schemas: [(name: String, schema: Schema)] { [] }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .GET, "/v1/sso/start", "startSSO", "Sign in through the workspace's identity provider", tag: "Single sign-on",
                description: "Redirects the browser to the provider (the authorization code flow with PKCE); "
                    + "it comes back to `/v1/sso/callback`.",
                query: [Self.workspace], success: .content(302, mediaType: "text/plain", schema: .string),
                successDescription: "To the provider's authorization endpoint (`Location`).", errors: [404, 502], start),
            Endpoint(
                .GET, Self.callbackPath, "finishSSO", "Where the identity provider sends the browser back", tag: "Single sign-on",
                description: "Redeems the code, verifies the ID token, begins a session (its cookie) and redirects to the console. "
                    + "Each sign-in comes back once.",
                success: .content(303, mediaType: "text/plain", schema: .string),
                successDescription: "To the console, with the session's cookie.", errors: [401, 403, 404, 502], callback),
        ]
    }

    /// The callback's URL where linkd is reached (`PublicOrigin`): what to register at the provider.
    static func redirectURI(_ request: Request, origin: PublicOrigin) -> String {
        origin.of(request) + callbackPath
    }

    func start(_ request: Request) throws -> Response {
        let name = try Self.workspace.value(in: request) ?? ""
        let settings = try pool.withConnection { connection -> WorkspaceSSO? in
            guard let workspace = try WorkspaceStore.find(name, on: connection) else { return nil }
            return try SSOStore.find(workspace.id, on: connection)
        }
        guard let settings else { throw ServiceError.notFound("Single sign-on for this workspace") }
        let metadata: ProviderMetadata
        do { metadata = try providers.provider(settings.issuer).metadata() } catch { throw Self.problem(error) }
        let state = SecretToken.generate()
        let attempt = AuthorizationRequest(state: state.text, nonce: SecretToken.generate().text, codeVerifier: SecretToken.generate().text)
        try pool.withConnection { connection in
            try SSOStore.begin(
                stateHash: state.hash, nonce: attempt.nonce, codeVerifier: attempt.codeVerifier,
                workspace: settings.workspaceID, lifetime: configuration.attemptLifetime, on: connection)
        }
        var response = Response.empty(status: 302)
        response.headers.add(
            "Location",
            attempt.url(
                endpoint: metadata.authorizationEndpoint, clientID: settings.clientID,
                redirectURI: Self.redirectURI(request, origin: origin)))
        response.headers.add(
            "Set-Cookie",
            Cookie.set(
                Self.stateCookie, state.text, path: Self.callbackPath,
                maxAge: Int(configuration.attemptLifetime), request: request))
        response.headers.add("Cache-Control", "no-store")
        return response
    }

    func callback(_ request: Request) throws -> Response {
        guard let stateText = request.query("state"), let state = SecretToken(presented: Substring(stateText)) else {
            throw ServiceError.badRequest("The provider sent no valid state back; start the sign-in again.")
        }
        let sameBrowser = Cookie.value(Self.stateCookie, in: request).map { Self.equal($0, stateText) } ?? false
        let (attempt, settings) = try pool.withTransaction { connection in
            // Claimed whatever follows: a state is used once, even by a sign-in that fails.
            guard let attempt = try SSOStore.claim(stateHash: state.hash, on: connection) else {
                throw ServiceError.badRequest("This sign-in is unknown, expired or already used; start it again.")
            }
            guard let settings = try SSOStore.find(attempt.workspace, on: connection) else {
                throw ServiceError.notFound("Single sign-on for this workspace")
            }
            return (attempt, settings)
        }
        guard sameBrowser else { throw ServiceError.badRequest("This sign-in was started in another browser; start it again here.") }
        if let error = request.query("error") {
            throw ServiceError.unauthorized("The identity provider did not sign you in (\(error.prefix(64))).")
        }
        guard let code = request.query("code"), !code.isEmpty, code.utf8.count <= 4096 else {
            throw ServiceError.badRequest("The provider sent no code back; start the sign-in again.")
        }
        guard let keys,
            let secret = keys.unseal(settings.clientSecretSealed, keyID: settings.clientSecretKeyID, for: settings.workspaceID)
        else {
            throw Problem.serviceUnavailable(
                detail: "The key that sealed the client secret is not configured (--webhook-secret-key).",
                retryAfter: nil)
        }
        let provider = providers.provider(settings.issuer)
        let claims: IDTokenClaims
        do {
            let tokens = try provider.redeem(
                code: code, codeVerifier: attempt.codeVerifier, redirectURI: Self.redirectURI(request, origin: origin),
                clientID: settings.clientID, clientSecret: String(decoding: secret, as: UTF8.self))
            claims = try provider.verify(idToken: tokens.idToken, clientID: settings.clientID, nonce: attempt.nonce)
        } catch {
            throw Self.problem(error)
        }
        guard let email = claims.email?.lowercased(), claims.emailVerified, email.contains("@"),
            (3...254).contains(email.unicodeScalars.count),
            email.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F })
        else {
            throw ServiceError.forbidden("The identity provider did not give a verified email address.")
        }
        // The name as `people.name` holds it: no control characters (nor NUL, which text cannot hold), 200 at most.
        let printable = (claims.name ?? "").unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
        let name = String(String.UnicodeScalarView(printable.prefix(200)))
        let groups = settings.groupsClaim.map(claims.strings) ?? []
        let cookie = try pool.withTransaction { connection in
            let existing = try PersonStore.find(email: email, on: connection)
            let current = try existing.flatMap { try MembershipStore.role(of: $0.id, in: settings.workspaceID, on: connection) }
            let person: Person
            let role: Role
            if let existing, let current {
                person = existing
                role = settings.role(groups: groups, isNew: false) ?? current
            } else {
                guard settings.allows(email: email), let given = settings.role(groups: groups, isNew: true) else {
                    throw ServiceError.forbidden(
                        "\(email) is not a member of this workspace, and its single sign-on does not add people of that domain.")
                }
                person = try existing ?? PersonStore.ensure(email: email, name: name, on: connection)
                role = given
            }
            if role != current {
                try MembershipStore.set(person.id, of: settings.workspaceID, role: role, on: connection)
                let actor = Principal(workspaceID: settings.workspaceID, keyID: nil, personID: person.id, scope: .admin, role: role)
                try AuditStore.record(
                    on: connection, actor, current == nil ? .create : .update, type: "membership",
                    id: person.id.canonicalText,
                    before: current.map { .object(["email": .string(email), "role": .string($0.rawValue)]) },
                    after: .object(["email": .string(email), "role": .string(role.rawValue), "via": .string("sso")]))
            }
            return try issuer.begin(
                person: person.id, workspace: settings.workspaceID, via: "sso", request: request,
                on: connection
            ).setCookie
        }
        var response = Response.empty(status: 303)
        response.headers.add("Location", "/console/")
        response.headers.add("Set-Cookie", cookie)
        response.headers.add(
            "Set-Cookie", Cookie.set(Self.stateCookie, "", path: Self.callbackPath, maxAge: 0, request: request))
        response.headers.add("Cache-Control", "no-store")
        return response
    }

    /// What a refusal of the provider or of its token answers: 502 when the provider could not be asked or
    /// answered wrongly, 401 when the code or the token was refused.
    static func problem(_ error: any Error) -> any Error {
        guard let error = error as? OpenIDError else { return error }
        switch error.code {
        case .unreachable, .discovery, .keySet:
            return Problem(type: Problem.Types.base + "bad-gateway", title: "Bad gateway", status: 502)
                .with(detail: "The identity provider could not be asked: \(error.message).")
        default:
            return ServiceError.unauthorized("The sign-in was refused: \(error.message).")
        }
    }

    private static func equal(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
