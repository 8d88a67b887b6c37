import Foundation
import LinkKit
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// One-time links that set a password (`linkd users create`, resets): `POST /v1/password`.
@Suite("People: one-time password links")
struct PasswordLinkTests {
    @Test func aLinkSetsThePasswordOnce() throws {
        try TestService.people { service in
            let token = try Workspace.addPerson(
                pool: service.application.pool, workspace: "acme", email: "Ops@Example.com", role: .owner,
                linkLifetime: 86_400)
            func set(_ password: String, token: String = token.text) throws -> TestResponse {
                try service.request("POST", "/v1/password", json: #"{"token":"\#(token)","password":"\#(password)"}"#)
            }
            for weak in ["short", "ops@example.com", "OPS@EXAMPLE.COM"] {
                let refused = try set(weak)
                #expect(refused.status == 422, "\(refused.text)")
                #expect(try refused.json["errors"]?.arrayValue?.first?["pointer"]?.stringValue == "/password")
            }
            #expect(try set("a long enough password").status == 204, "a refused password does not use the link")
            let again = try set("another long password")
            #expect(again.status == 422)
            #expect(try again.json["errors"]?.arrayValue?.first?["pointer"]?.stringValue == "/token")
            #expect(try set("a long enough password", token: SecretToken.generate().text).status == 422)
            #expect(try set("a long enough password", token: "not-a-token").status == 422)
            #expect(try service.signIn("ops@example.com", "a long enough password").status == 201)
        }
    }

    @Test func anExpiredLinkSetsNothing() throws {
        try TestService.people { service in
            let token = try Workspace.addPerson(
                pool: service.application.pool, workspace: "acme", email: "ops@example.com", role: .owner,
                linkLifetime: 86_400)
            try service.application.pool.withConnection { connection in
                try connection.execute("UPDATE one_time_links SET expires_at = now() - interval '1 second'")
            }
            let expired = try service.request(
                "POST", "/v1/password", json: #"{"token":"\#(token.text)","password":"a long enough password"}"#)
            #expect(expired.status == 422)
            #expect(try service.signIn("ops@example.com", "a long enough password").status == 401)
        }
    }

    /// Setting a password ends the person's sessions (a reset after a stolen cookie).
    @Test func settingAPasswordEndsTheSessions() throws {
        try TestService.people { service in
            try service.person("ops@example.com")
            let cookie = try service.session("ops@example.com")
            #expect(try service.request("GET", "/v1/whoami", cookie: cookie).status == 200)
            let token = try Workspace.addPerson(
                pool: service.application.pool, workspace: "acme", email: "ops@example.com", role: .owner,
                linkLifetime: 600)
            #expect(
                try service.request("POST", "/v1/password", json: #"{"token":"\#(token.text)","password":"a brand new password"}"#).status
                    == 204)
            #expect(try service.request("GET", "/v1/whoami", cookie: cookie).status == 401)
        }
    }
}
