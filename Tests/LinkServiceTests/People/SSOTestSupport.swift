import Foundation
import LinkKit
@testable import LinkService
import Outbound
import Testing
import TestSupport

/// What the single sign-on tests share: a service allowed to reach the Authlib provider on loopback over http
/// (as `--sso-allow-http on --sso-allow-private 127.0.0.0/8` would), its settings, and the sign-in followed by
/// hand, redirect by redirect, as a browser would.
enum SSOTesting {
    static func configure(_ configuration: inout ServiceConfiguration) {
        configuration.webhooks.keys = WebhookSecretKeys([WebhookSecretKeys.Key.generate(id: "test")])
        configuration.sso.allowHTTP = true
        configuration.sso.allowedRanges = [try! CIDR("127.0.0.0/8")]
    }

    /// Sets `acme`'s single sign-on to `provider` with `extra` members of the body; answers the admin key.
    @discardableResult
    static func setUp(
        _ service: TestService, _ provider: OpenIDTestProvider, extra: String = #","allowedDomains":["example.com"],"defaultRole":"viewer""#
    ) throws -> String {
        let key = try service.key(workspace: "acme", scope: .admin, role: .owner)
        let body =
            #"{"issuer":"\#(provider.issuer)","clientId":"\#(provider.clientID)","clientSecret":"\#(provider.clientSecret)"\#(extra)}"#
        _ = try Fixture.expect(200, service.request("PUT", "/v1/sso", key: key, json: body))
        return key
    }

    /// One sign-in's way out: `/v1/sso/start`'s redirect, and the state cookie it set.
    struct Start {
        let authorizationURL: String
        let stateCookie: String
    }

    static func start(_ service: TestService, workspace: String = "acme") throws -> Start {
        let response = try Fixture.expect(
            302, service.request("GET", "/v1/sso/start?workspace=\(workspace)", headers: [("Host", "127.0.0.1:\(service.port)")]))
        let cookie = try #require(response.headers.values("Set-Cookie").first { $0.hasPrefix("linkd_sso_state=") })
        return Start(authorizationURL: try #require(response.headers["Location"]), stateCookie: String(cookie.prefix { $0 != ";" }))
    }

    /// The provider's answer to the authorization URL: the callback's path and query on linkd.
    static func authorize(_ start: Start, _ provider: OpenIDTestProvider) throws -> String {
        let target = String(start.authorizationURL.dropFirst(provider.issuer.count))
        let response = try Fixture.expect(302, HTTPTestClient.request(port: provider.port, path: target))
        let location = try #require(response.headers["Location"])
        let components = try #require(URLComponents(string: location))
        return components.path + "?" + (components.percentEncodedQuery ?? "")
    }

    /// linkd's answer to the callback `path`, with `cookie` (the state cookie, or none).
    static func callback(_ service: TestService, _ path: String, cookie: String?) throws -> TestResponse {
        var headers = [("Host", "127.0.0.1:\(service.port)")]
        if let cookie { headers.append(("Cookie", cookie)) }
        return try service.request("GET", path, headers: headers)
    }

    /// The whole sign-in; answers the callback's response.
    static func signIn(_ service: TestService, _ provider: OpenIDTestProvider) throws -> TestResponse {
        let start = try start(service)
        return try callback(service, try authorize(start, provider), cookie: start.stateCookie)
    }

    /// The session token of a response's `linkd_session` cookie.
    static func sessionToken(_ response: TestResponse) -> SecretToken? {
        response.headers.values("Set-Cookie").first { $0.hasPrefix("linkd_session=") }
            .flatMap { SecretToken(presented: $0.dropFirst("linkd_session=".count).prefix { $0 != ";" }) }
    }

    /// The role of the person with `email` in `acme`; nil when they are no member (or no person).
    static func role(_ service: TestService, _ email: String) throws -> Role? {
        try service.application.pool.withConnection { connection in
            guard let person = try PersonStore.find(email: email, on: connection),
                let workspace = try WorkspaceStore.find("acme", on: connection)
            else { return nil }
            return try MembershipStore.role(of: person.id, in: workspace.id, on: connection)
        }
    }
}
