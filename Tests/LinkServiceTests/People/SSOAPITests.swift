import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// `/v1/sso`: an owner's settings, the secret sealed and never shown, bad bodies refused at their pointers.
@Suite(.serialized)
struct SSOAPITests {
    /// Behind a front end, the redirect URI to register is on `--public-url`, as one-time links are, whatever
    /// `Host` the request carried; a `Host` that is not a name and a port never makes one.
    @Test func theRedirectURIIsOnThePublicURLWhenOneIsSet() throws {
        try TestService.with(configure: {
            SSOTesting.configure(&$0)
            $0.sessions.publicURL = "https://console.example.com/"
        }) { service in
            let admin = try service.key(workspace: "acme", scope: .admin, role: .owner)
            let body = #"{"issuer":"https://id.example.com/realms/acme","clientId":"linkd","clientSecret":"s"}"#
            let saved = try Fixture.expect(
                200, service.request("PUT", "/v1/sso", key: admin, json: body, headers: [("Host", "internal:8080")]))
            #expect(try saved.json["redirectUri"]?.stringValue == "https://console.example.com/v1/sso/callback")
        }
        try TestService.with(configure: SSOTesting.configure) { service in
            let admin = try service.key(workspace: "acme", scope: .admin, role: .owner)
            let body = #"{"issuer":"https://id.example.com/realms/acme","clientId":"linkd","clientSecret":"s"}"#
            let saved = try Fixture.expect(
                200, service.request("PUT", "/v1/sso", key: admin, json: body, headers: [("Host", "evil.example\"><x")]))
            #expect(try saved.json["redirectUri"]?.stringValue == "http://localhost/v1/sso/callback")
        }
    }

    @Test func settingsAreReadAndWrittenByOwnersAndTheSecretIsNeverShown() throws {
        try TestService.with(configure: SSOTesting.configure) { service in
            let admin = try service.key(workspace: "acme", scope: .admin, role: .owner)
            let writer = try service.key(workspace: "acme", scope: .write)
            let adminRole = try service.key(workspace: "acme", scope: .admin, role: .admin)
            #expect(try service.request("GET", "/v1/sso", key: adminRole).status == 403)
            #expect(try service.request("GET", "/v1/sso", key: admin).status == 404)
            let body =
                #"{"issuer":"https://id.example.com/realms/acme","clientId":"linkd","clientSecret":"top-secret-value","allowedDomains":["Example.COM"],"defaultRole":"editor","groupsClaim":"groups","groupRoles":{"ops":"admin"},"required":true}"#
            #expect(try service.request("PUT", "/v1/sso", key: writer, json: body).status == 403)
            let saved = try Fixture.expect(
                200, service.request("PUT", "/v1/sso", key: admin, json: body, headers: [("Host", "links.example.com")]))
            let json = try saved.json
            #expect(json["issuer"]?.stringValue == "https://id.example.com/realms/acme" && json["clientSecretSet"] == .bool(true))
            #expect(json["allowedDomains"] == .array([.string("example.com")]) && json["defaultRole"]?.stringValue == "editor")
            #expect(json["groupRoles"]?["ops"]?.stringValue == "admin" && json["required"] == .bool(true))
            #expect(json["redirectUri"]?.stringValue == "http://links.example.com/v1/sso/callback")
            #expect(!saved.text.contains("top-secret-value"))
            let sealed = try service.application.pool.withConnection {
                try $0.query("SELECT client_secret_sealed FROM workspace_sso").first!.decode(0, as: [UInt8].self)
            }
            #expect(!String(decoding: sealed, as: UTF8.self).contains("top-secret"))
            // Without a secret the stored one stays.
            let again = try Fixture.expect(
                200,
                service.request("PUT", "/v1/sso", key: admin, json: #"{"issuer":"https://id.example.com/realms/acme","clientId":"linkd2"}"#)
            )
            #expect(try again.json["clientId"]?.stringValue == "linkd2" && again.json["defaultRole"] == .null)
            let resealed = try service.application.pool.withConnection {
                try $0.query("SELECT client_secret_sealed FROM workspace_sso").first!.decode(0, as: [UInt8].self)
            }
            #expect(resealed == sealed)
            let audit = try Fixture.expect(200, service.request("GET", "/v1/audit", key: admin))
            #expect(audit.text.contains("\"sso\"") && !audit.text.contains("top-secret"))
            #expect(try service.request("GET", "/v1/sso", key: writer).status == 403)
            #expect(try service.request("DELETE", "/v1/sso", key: admin).status == 204)
            #expect(try service.request("GET", "/v1/sso", key: admin).status == 404)
            // Another workspace sees none of it.
            _ = try Fixture.expect(200, service.request("PUT", "/v1/sso", key: admin, json: body))
            #expect(
                try service.request("GET", "/v1/sso", key: try service.key(workspace: "other", scope: .admin, role: .owner)).status == 404)
        }
    }

    @Test func badSettingsAreRefusedAtTheirPointers() throws {
        try TestService.with(configure: SSOTesting.configure) { service in
            let admin = try service.key(workspace: "acme", scope: .admin, role: .owner)
            func pointers(_ body: String) throws -> [String] {
                let response = try service.request("PUT", "/v1/sso", key: admin, json: body)
                #expect(response.status == 422, "\(body)")
                return try response.json["errors"]?.arrayValue?.compactMap { $0["pointer"]?.stringValue } ?? []
            }
            #expect(try pointers(#"{"clientId":"c","clientSecret":"s"}"#) == ["/issuer"])
            #expect(try pointers(#"{"issuer":"ftp://id.example.com","clientId":"c","clientSecret":"s"}"#) == ["/issuer"])
            #expect(try pointers(#"{"issuer":"https://id.example.com?x=1","clientId":"c","clientSecret":"s"}"#) == ["/issuer"])
            #expect(try pointers(#"{"issuer":"https://id.example.com","clientId":"c"}"#) == ["/clientSecret"])
            #expect(
                try pointers(#"{"issuer":"https://id.example.com","clientId":"c","clientSecret":"s","allowedDomains":["not a domain"]}"#)
                    == ["/allowedDomains/0"])
            #expect(
                try pointers(#"{"issuer":"https://id.example.com","clientId":"c","clientSecret":"s","defaultRole":"god"}"#) == [
                    "/defaultRole"
                ])
            #expect(
                try pointers(
                    #"{"issuer":"https://id.example.com","clientId":"c","clientSecret":"s","groupsClaim":"g","groupRoles":{"x":"god"}}"#)
                    == ["/groupRoles/x"])
            #expect(
                try pointers(#"{"issuer":"https://id.example.com","clientId":"c","clientSecret":"s","groupRoles":{"x":"admin"}}"#) == [
                    "/groupsClaim"
                ])
            #expect(try pointers(#"{"issuer":"https://id.example.com","clientId":"c","clientSecret":"s","extra":1}"#) == ["/extra"])
            let count = try service.application.pool.withConnection {
                try $0.query("SELECT count(*) FROM workspace_sso").first!.decode(0, as: Int64.self)
            }
            #expect(count == 0)
        }
    }
}
