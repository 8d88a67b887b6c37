import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Signing in through a workspace's provider (the Authlib one), redirect by redirect: the person found or
/// added by verified email, the membership's role, the session and its cookie; and every way a sign-in is
/// refused.
@Suite(.serialized)
struct SSOSignInTests {
    @Test func aPersonOfAnAllowedDomainIsAddedAndSignedIn() throws {
        let provider = try OpenIDTestProvider()
        try TestService.with(configure: SSOTesting.configure) { service in
            try SSOTesting.setUp(service, provider)
            let start = try SSOTesting.start(service)
            #expect(start.authorizationURL.hasPrefix(provider.issuer + "/authorize?"))
            #expect(start.authorizationURL.contains("code_challenge_method=S256") && start.authorizationURL.contains("nonce="))
            let response = try SSOTesting.callback(service, try SSOTesting.authorize(start, provider), cookie: start.stateCookie)
            #expect(response.status == 303 && response.headers["Location"] == "/console/")
            let cookie = try #require(response.headers.values("Set-Cookie").first { $0.hasPrefix("linkd_session=") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && !cookie.contains("Secure"))
            let token = try #require(SSOTesting.sessionToken(response))
            let session = try service.application.pool.withConnection { try SessionStore.find(token, idle: 600, on: $0) }
            #expect(session != nil)
            #expect(try SSOTesting.role(service, "ada@example.com") == .viewer)
            // Again: the same person, a second session, the membership unchanged.
            #expect(try SSOTesting.signIn(service, provider).status == 303)
            let people = try service.application.pool.withConnection {
                try $0.query("SELECT count(*) FROM people").first!.decode(0, as: Int64.self)
            }
            #expect(people == 1)
        }
    }

    @Test func aStateIsUsedOnceAndOnlyByTheBrowserThatStartedIt() throws {
        let provider = try OpenIDTestProvider()
        try TestService.with(configure: SSOTesting.configure) { service in
            try SSOTesting.setUp(service, provider)
            let start = try SSOTesting.start(service)
            let path = try SSOTesting.authorize(start, provider)
            #expect(try SSOTesting.callback(service, path, cookie: nil).status == 400)
            // That attempt was spent by the refusal: the right browser cannot finish it either.
            #expect(try SSOTesting.callback(service, path, cookie: start.stateCookie).status == 400)
            let second = try SSOTesting.start(service)
            let secondPath = try SSOTesting.authorize(second, provider)
            #expect(try SSOTesting.callback(service, secondPath, cookie: second.stateCookie).status == 303)
            let replay = try SSOTesting.callback(service, secondPath, cookie: second.stateCookie)
            #expect(replay.status == 400 && replay.text.contains("already used"))
            #expect(
                try SSOTesting.callback(service, "/v1/sso/callback?code=x&state=\(SecretToken.generate().text)", cookie: nil).status == 400)
        }
    }

    /// The code of one sign-in brought back under another's state: redeemed with that other sign-in's PKCE
    /// verifier, the provider refuses it (and its token's nonce would not be that sign-in's: IDTokenVerificationTests).
    @Test func aCodeOfAnotherSignInIsRefused() throws {
        let provider = try OpenIDTestProvider()
        try TestService.with(configure: SSOTesting.configure) { service in
            try SSOTesting.setUp(service, provider)
            let first = try SSOTesting.start(service)
            let firstPath = try SSOTesting.authorize(first, provider)
            let second = try SSOTesting.start(service)
            let secondPath = try SSOTesting.authorize(second, provider)
            let code = try #require(URLComponents(string: firstPath)?.queryItems?.first { $0.name == "code" }?.value)
            let state = try #require(URLComponents(string: secondPath)?.queryItems?.first { $0.name == "state" }?.value)
            let response = try SSOTesting.callback(service, "/v1/sso/callback?code=\(code)&state=\(state)", cookie: second.stateCookie)
            #expect(response.status == 401 && response.text.contains("invalid_grant"))
            #expect(try SSOTesting.role(service, "ada@example.com") == nil)
        }
    }

    @Test func peopleOutsideTheAllowedDomainsOrUnverifiedAreRefused() throws {
        let provider = try OpenIDTestProvider()
        try TestService.with(configure: SSOTesting.configure) { service in
            try SSOTesting.setUp(service, provider)
            try provider.control(["user": ["sub": "u2", "email": "eve@elsewhere.org", "email_verified": true, "name": "Eve", "groups": []]])
            #expect(try SSOTesting.signIn(service, provider).status == 403)
            try provider.control(["user": ["sub": "u3", "email": "bob@example.com", "email_verified": false, "name": "Bob", "groups": []]])
            #expect(try SSOTesting.signIn(service, provider).status == 403)
            let people = try service.application.pool.withConnection {
                try $0.query("SELECT count(*) FROM people").first!.decode(0, as: Int64.self)
            }
            #expect(people == 0)
            // Without a default role nobody is added, even of an allowed domain; an existing member still signs in.
            try SSOTesting.setUp(service, provider, extra: #","allowedDomains":["example.com"]"#)
            try provider.control(["user": ["sub": "u1", "email": "ada@example.com", "email_verified": true, "name": "Ada", "groups": []]])
            #expect(try SSOTesting.signIn(service, provider).status == 403)
            try service.application.pool.withConnection { connection in
                let person = try PersonStore.ensure(email: "ada@example.com", on: connection)
                try MembershipStore.set(
                    person.id, of: try #require(try WorkspaceStore.find("acme", on: connection)).id, role: .editor, on: connection)
            }
            #expect(try SSOTesting.signIn(service, provider).status == 303)
            #expect(try SSOTesting.role(service, "ada@example.com") == .editor)
            try Self.expectNamesCleanedAndOverlongAddressesRefused(service, provider)
        }
    }

    @Test func groupsMapToRolesAtEverySignIn() throws {
        let provider = try OpenIDTestProvider()
        try TestService.with(configure: SSOTesting.configure) { service in
            try SSOTesting.setUp(
                service, provider,
                extra:
                    #","allowedDomains":["example.com"],"defaultRole":"viewer","groupsClaim":"groups","groupRoles":{"eng":"editor","platform":"admin"}"#
            )
            try provider.control([
                "alg": "ES256",
                "user": ["sub": "u1", "email": "ada@example.com", "email_verified": true, "name": "Ada", "groups": ["eng", "platform"]],
            ])
            #expect(try SSOTesting.signIn(service, provider).status == 303)
            #expect(try SSOTesting.role(service, "ada@example.com") == .admin)
            try provider.control([
                "user": ["sub": "u1", "email": "ada@example.com", "email_verified": true, "name": "Ada", "groups": ["eng"]]
            ])
            #expect(try SSOTesting.signIn(service, provider).status == 303)
            #expect(try SSOTesting.role(service, "ada@example.com") == .editor)
            try Self.expectNamesCleanedAndOverlongAddressesRefused(service, provider)
        }
    }

    @Test func aProviderThatCannotBeReachedIsABadGateway() throws {
        let provider = try OpenIDTestProvider()
        try TestService.with(configure: {
            SSOTesting.configure(&$0); $0.sso.allowedRanges = []
        }) { service in
            try SSOTesting.setUp(service, provider)
            let response = try service.request("GET", "/v1/sso/start?workspace=acme")
            #expect(response.status == 502 && response.text.contains("loopback"))
            #expect(try service.request("GET", "/v1/sso/start?workspace=nobody").status == 404)
        }
    }

    @Test func requiredSingleSignOnIsKnownForTheWorkspacesMembers() throws {
        let provider = try OpenIDTestProvider()
        try TestService.with(configure: SSOTesting.configure) { service in
            try SSOTesting.setUp(service, provider, extra: #","allowedDomains":["example.com"],"defaultRole":"viewer","required":true"#)
            #expect(try SSOTesting.signIn(service, provider).status == 303)
            try service.application.pool.withConnection { connection in
                let ada = try #require(try PersonStore.find(email: "ada@example.com", on: connection))
                #expect(try SSOStore.isRequired(for: ada.id, on: connection))
                let other = try PersonStore.ensure(email: "ops@example.com", on: connection)
                #expect(try !SSOStore.isRequired(for: other.id, on: connection))
            }
        }
    }

    /// A name with control characters and beyond the column's length is stored cleaned and cut; an address longer
    /// than an email can be is refused.
    private static func expectNamesCleanedAndOverlongAddressesRefused(_ service: TestService, _ provider: OpenIDTestProvider) throws {
        try SSOTesting.setUp(service, provider)
        let long = String(repeating: "é", count: 150) + "\u{0}\u{1}" + String(repeating: "ß", count: 150)
        try provider.control(["user": ["sub": "u4", "email": "kim@example.com", "email_verified": true, "name": long, "groups": []]])
        #expect(try SSOTesting.signIn(service, provider).status == 303)
        let stored = try service.application.pool.withConnection { try PersonStore.find(email: "kim@example.com", on: $0)?.name }
        #expect(stored == String(repeating: "é", count: 150) + String(repeating: "ß", count: 50))
        try provider.control([
            "user": [
                "sub": "u5", "email": String(repeating: "a", count: 250) + "@example.com", "email_verified": true,
                "name": "A", "groups": [],
            ]
        ])
        #expect(try SSOTesting.signIn(service, provider).status == 403)
    }
}
