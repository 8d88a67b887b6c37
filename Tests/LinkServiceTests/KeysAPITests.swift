import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

@Suite("API keys and access")
struct KeysAPITests {
    @Test func missingOrMalformedOrUnknownKeysAre401() throws {
        try TestService.with { service in
            for header in [
                nil, "Basic abc", "Bearer nope", "Bearer lk_00000000000000000000000000000000_" + String(repeating: "A", count: 43),
            ] {
                let response = try service.request("GET", "/v1/teams", headers: header.map { [("Authorization", $0)] } ?? [])
                #expect(response.status == 401, "\(header ?? "no header")")
                #expect(response.headers["Content-Type"]?.hasPrefix("application/problem+json") == true)
            }
        }
    }

    @Test func aKeyWithTheRightIDButWrongSecretIs401() throws {
        try TestService.with { service in
            let key = try service.key()
            let forged = String(key.dropLast(4)) + "AAAA"
            #expect(try service.request("GET", "/v1/teams", key: forged).status == 401)
            #expect(try service.request("GET", "/v1/teams", key: key).status == 200)
            // Now the key is cached with its verified secret: a wrong secret must still be hashed and refused.
            #expect(try service.request("GET", "/v1/teams", key: forged).status == 401)
            #expect(try service.request("GET", "/v1/teams", key: key).status == 200)
        }
    }

    @Test func scopesAreEnforced() throws {
        try TestService.with { service in
            let read = try service.key(scope: .read)
            let write = try service.key(scope: .write)
            #expect(try service.request("GET", "/v1/teams", key: read).status == 200)
            #expect(try service.request("POST", "/v1/teams", key: read, json: #"{"teamId":"ABCDE12345","name":"A"}"#).status == 403)
            #expect(try service.request("POST", "/v1/teams", key: write, json: #"{"teamId":"ABCDE12345","name":"A"}"#).status == 201)
            #expect(try service.request("GET", "/v1/keys", key: write).status == 403)
        }
    }

    /// `/v1/whoami`: any valid key reads its workspace and scope (what the console shows and offers).
    @Test func whoamiNamesTheWorkspaceAndTheKeysScope() throws {
        try TestService.with { service in
            let admin = try service.key(workspace: "acme")
            let created = try service.request("POST", "/v1/keys", key: admin, json: #"{"name":"dashboard","scope":"read"}"#).json
            let reader = try #require(created["key"]?.stringValue)
            let answer = try service.request("GET", "/v1/whoami", key: reader)
            #expect(answer.status == 200)
            #expect(answer.headers["Cache-Control"] == "no-store")
            let json = try answer.json
            #expect(json["workspace"]?["name"]?.stringValue == "acme")
            #expect(json["key"]?["id"]?.stringValue == created["id"]?.stringValue)
            #expect(json["key"]?["scope"]?.stringValue == "read")
            #expect(json["key"]?["name"]?.stringValue == "dashboard")
            #expect(!answer.text.contains(reader), "never the secret")
            #expect(try service.request("GET", "/v1/whoami", key: admin).json["key"]?["scope"]?.stringValue == "admin")
            let other = try service.key(workspace: "globex", scope: .write)
            #expect(try service.request("GET", "/v1/whoami", key: other).json["workspace"]?["name"]?.stringValue == "globex")
            #expect(try service.request("GET", "/v1/whoami").status == 401)
            let id = try #require(created["id"]?.stringValue)
            #expect(try service.request("DELETE", "/v1/keys/\(id)", key: admin).status == 204)
            #expect(try service.request("GET", "/v1/whoami", key: reader).status == 401)
        }
    }

    @Test func createListAndRevokeKeys() throws {
        try TestService.with { service in
            let admin = try service.key()
            let created = try service.request("POST", "/v1/keys", key: admin, json: #"{"name":"ci","scope":"read"}"#)
            #expect(created.status == 201)
            #expect(created.headers["Cache-Control"] == "no-store")
            let json = try created.json
            let token = try #require(json["key"]?.stringValue)
            let id = try #require(json["id"]?.stringValue)
            #expect(try service.request("GET", "/v1/teams", key: token).status == 200)

            let list = try service.request("GET", "/v1/keys", key: admin)
            let items = try #require(try list.json["items"]?.arrayValue)
            #expect(items.count == 2)
            #expect(!list.text.contains(token), "listings never show secrets")

            #expect(try service.request("DELETE", "/v1/keys/\(id)", key: admin).status == 204)
            #expect(try service.request("GET", "/v1/teams", key: token).status == 401)
        }
    }

    @Test func aRevocationReachesEveryNodeAtOnce() throws {
        try TestService.with { first in
            let second = try TestService(parameters: first.database!.parameters)
            defer { second.close() }
            let admin = try first.key()
            let created = try first.request("POST", "/v1/keys", key: admin, json: #"{"scope":"read"}"#)
            let token = try #require(try created.json["key"]?.stringValue)
            let id = try #require(try created.json["id"]?.stringValue)
            // Wait until both nodes' change feeds are connected, so the key is cached on the second.
            try waitUntil("both change feeds connected") { try !second.request("GET", "/readyz").text.contains("stale") }
            #expect(try second.request("GET", "/v1/teams", key: token).status == 200)
            #expect(try first.request("DELETE", "/v1/keys/\(id)", key: admin).status == 204)
            #expect(try first.request("GET", "/v1/teams", key: token).status == 401, "the revoking node at once")
            var status = 0
            let start = Date()
            repeat {
                status = try second.request("GET", "/v1/teams", key: token).status
            } while status == 200 && Date().timeIntervalSince(start) < 2
            #expect(status == 401)
            #expect(Date().timeIntervalSince(start) < 1, "the other node within a second")
        }
    }

    @Test func keysOfAnotherWorkspaceAreInvisible() throws {
        try TestService.with { service in
            let acme = try service.key(workspace: "acme")
            let other = try service.key(workspace: "other")
            let created = try service.request("POST", "/v1/keys", key: other, json: #"{"scope":"read"}"#)
            let id = try #require(try created.json["id"]?.stringValue)
            #expect(try service.request("DELETE", "/v1/keys/\(id)", key: acme).status == 404)
            let items = try #require(try service.request("GET", "/v1/keys", key: acme).json["items"]?.arrayValue)
            #expect(items.count == 1)
        }
    }

    @Test func keyShapeRoundTrips() throws {
        let secret = APIKeySecret.generate()
        let parsed = try #require(APIKeySecret(parsing: secret.token))
        #expect(parsed == secret)
        #expect(parsed.matches(storedHash: secret.hash))
        #expect(secret.hash == SHA256.digest(Array(secret.token.utf8))) // what the database stores
        #expect(!parsed.matches(storedHash: APIKeySecret.generate().hash))
        #expect(APIKeySecret(parsing: secret.token + "x") == nil)
        #expect(!secret.description.contains(secret.token))
        #expect(parsed.hasSecret(Array(secret.secret.utf8)))
        #expect(!parsed.hasSecret(Array(APIKeySecret.generate().secret.utf8)))
        #expect(!parsed.hasSecret(Array(secret.secret.utf8.dropLast())))
    }

    /// A key is the exact string issued: its id in upper-case hex names the same row but is refused.
    @Test func aKeyIDInUpperCaseIsRefused() throws {
        let secret = APIKeySecret.generate()
        let token = secret.token
        let id = token.dropFirst(3).prefix(32)
        let shouted = "lk_" + id.uppercased() + token.dropFirst(35)
        #expect(shouted != token && shouted.lowercased().hasPrefix(token.prefix(35)))
        #expect(APIKeySecret(parsing: shouted) == nil)
        #expect(APIKeySecret(authorization: "Bearer " + shouted) == nil)
        try TestService.with { service in
            let key = try service.key()
            let upper = "lk_" + key.dropFirst(3).prefix(32).uppercased() + key.dropFirst(35)
            #expect(try service.request("GET", "/v1/teams", key: key).status == 200)
            #expect(try service.request("GET", "/v1/teams", key: upper).status == 401)
        }
    }

    /// libmicrohttpd would hand the header over cut at the NUL: the valid key alone.
    @Test func aValidKeyFollowedByNULAndJunkIsRefused() throws {
        try TestService.with { service in
            let key = try service.key()
            let client = try HTTPTestClient(port: service.port)
            try client.send("GET /v1/teams HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(key)\0junk\r\nConnection: close\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 400)
            #expect(response.headers["Content-Type"] == "application/problem+json")
        }
    }

    @Test func authorizationHeaderForms() throws {
        let secret = APIKeySecret.generate()
        for header in [
            "Bearer \(secret.token)", "bearer \(secret.token)", "BEARER  \(secret.token)", "Bearer \(secret.token) ",
            " Bearer \(secret.token)\t", "\tbearer \(secret.token)",
        ] {
            #expect(APIKeySecret(authorization: header) == secret, "\(header.debugDescription)")
        }
        for header in [
            "Bearer\(secret.token)", "Bearer\t\(secret.token)", "Bearer \t\(secret.token)", "Bearer", "Bearer ", "Basic \(secret.token)",
            "Bearers \(secret.token)",
            "Bearer \(secret.token)x", "Bearer \(secret.token) x", "Béarer \(secret.token)", secret.token, "",
        ] {
            #expect(APIKeySecret(authorization: header) == nil, "\(header.debugDescription)")
        }
    }
}
