import Foundation
import HTTPServer
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Issue 50, items 3 and 6: every endpoint declares the lowest role that may call it, the server enforces it and the
/// OpenAPI document prints it; keys act as the role they were created with and name who created them; the audit log
/// names the key or person behind each change and where it came from.
@Suite("Roles, keys with roles, the audit log's actors")
struct RolesTests {
    private static func authenticated(_ service: TestService) -> [Endpoint] {
        service.application.endpoints.filter { if case .key = $0.access { true } else { false } }
    }

    /// A tag without roles would leave its writes to owners alone: every tag served with credentials has its pair.
    @Test func everyAuthenticatedTagHasItsRoles() throws {
        try TestService.with { service in
            for endpoint in Self.authenticated(service) {
                #expect(
                    Endpoint.tagRoles[endpoint.tag] != nil, "\(endpoint.operationID): add the tag '\(endpoint.tag)' to Endpoint.tagRoles")
            }
        }
    }

    /// The document says per operation which roles may call it (`x-linkd-roles`, and in words), from the declaration
    /// the server enforces; the defaults follow docs/PEOPLE.md's table.
    @Test func theDocumentListsTheRolesOfEveryOperation() throws {
        try TestService.with { service in
            let document = try service.request("GET", "/openapi.json").json
            var seen = 0
            for endpoint in Self.authenticated(service) {
                let operation = try #require(document["paths"]?[endpoint.path]?[endpoint.method.rawValue.lowercased()])
                let roles = operation["x-linkd-roles"]?.arrayValue?.compactMap(\.stringValue)
                #expect(roles == endpoint.allowedRoles.map(\.rawValue), "\(endpoint.operationID)")
                #expect(
                    operation["description"]?.stringValue?.contains("one of the roles `\(endpoint.role!.rawValue)`") == true,
                    "\(endpoint.operationID)")
                if endpoint.role! > .viewer { #expect(operation["responses"]?["403"] != nil, "\(endpoint.operationID)") }
                seen += 1
            }
            #expect(seen > 60)
            func roles(_ path: String, _ method: String) -> [String]? {
                document["paths"]?[path]?[method]?["x-linkd-roles"]?.arrayValue?.compactMap(\.stringValue)
            }
            #expect(roles("/v1/links", "get") == ["viewer", "editor", "admin", "owner"])
            #expect(roles("/v1/links", "post") == ["editor", "admin", "owner"])
            #expect(roles("/v1/links/export", "get") == ["editor", "admin", "owner"])
            #expect(roles("/v1/qr", "get") == ["editor", "admin", "owner"])
            #expect(roles("/v1/resolve", "post") == ["viewer", "editor", "admin", "owner"])
            #expect(roles("/v1/domains/{host}/rules", "put") == ["admin", "owner"])
            #expect(roles("/v1/webhooks", "get") == ["viewer", "editor", "admin", "owner"])
            #expect(roles("/v1/keys", "get") == ["admin", "owner"])
            #expect(roles("/v1/whoami", "get") == ["viewer", "editor", "admin", "owner"])
            #expect(roles("/healthz", "get") == nil, "public operations name no roles")
        }
    }

    /// A key's scope and its role both bound it: an editor with the admin scope writes links but not rules or apps, and
    /// the refusal says which role is needed, which one the caller has, and where.
    @Test func theRoleIsEnforcedBesideTheScope() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let editor = try service.key(role: .editor)
            let link = try service.request(
                "POST", "/v1/links?acknowledgeMoves=true", key: editor,
                json: #"{"domain":"\#(fixture.host)","app":"\#(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":1}}}"#)
            #expect(link.status == 201, "\(link.text)")
            let refused = try service.request("POST", "/v1/teams", key: editor, json: #"{"teamId":"ZYXWV98765","name":"B"}"#)
            #expect(refused.status == 403)
            #expect(refused.headers["Content-Type"]?.hasPrefix("application/problem+json") == true)
            #expect(try refused.json["detail"]?.stringValue == "This call needs the admin role; you act as editor in acme.")
            #expect(try service.request("GET", "/v1/teams", key: fixture.key).json["items"]?.arrayValue?.count == 1, "nothing created")
            #expect(try service.request("GET", "/v1/keys", key: editor).status == 403)
            #expect(try service.request("GET", "/v1/teams", key: editor).status == 200)

            let viewer = try service.key(role: .viewer)
            #expect(try service.request("POST", "/v1/links", key: viewer, json: "{}").status == 403)
            #expect(try service.request("GET", "/v1/links", key: viewer).status == 200)
            #expect(try service.request("GET", "/v1/links/export", key: viewer).status == 403)
            #expect(try service.request("GET", "/v1/links/export", key: editor).status == 200)
        }
    }

    /// The cache keeps the stored role: a key served from it acts as its role, not as the one its scope implies.
    @Test func aCachedKeyKeepsItsRole() throws {
        try TestService.with { service in
            try waitUntil("the change feed connected") { service.application.catalogChanges.keys.trust == .current }
            let editor = try service.key(scope: .write, role: .editor)
            for _ in 0..<3 {
                #expect(try service.request("POST", "/v1/teams", key: editor, json: #"{"teamId":"ZYXWV98765","name":"B"}"#).status == 403)
            }
            let id = try #require(APIKeySecret(authorization: "Bearer \(editor)")?.keyID)
            #expect(service.application.catalogChanges.keys.lookup(id)?.role == .editor)
        }
    }

    /// `POST /v1/keys` takes `role` (by default the scope's), never above the creator's; keys show `role` and who
    /// created them; `/v1/whoami` says the role acted as.
    @Test func keysAreCreatedWithARoleNoHigherThanTheirCreators() throws {
        try TestService.with { service in
            let ops = try service.personID("ops@example.com")
            let admin = try service.key(role: .admin, createdBy: ops)
            let editorKey = try service.request(
                "POST", "/v1/keys", key: admin, json: #"{"name":"campaigns","scope":"write","role":"editor"}"#)
            #expect(editorKey.status == 201, "\(editorKey.text)")
            #expect(try editorKey.json["role"]?.stringValue == "editor")
            #expect(try editorKey.json["createdBy"]?["id"]?.stringValue == ops.canonicalText)
            #expect(try editorKey.json["createdBy"]?["email"]?.stringValue == "ops@example.com")
            let token = try #require(try editorKey.json["key"]?.stringValue)
            let whoami = try service.request("GET", "/v1/whoami", key: token).json
            #expect(whoami["role"]?.stringValue == "editor")
            #expect(whoami["key"]?["role"]?.stringValue == "editor")

            #expect(try service.request("POST", "/v1/keys", key: admin, json: #"{"scope":"read"}"#).json["role"]?.stringValue == "viewer")
            #expect(try service.request("POST", "/v1/keys", key: admin, json: #"{"scope":"admin"}"#).json["role"]?.stringValue == "admin")

            let before = try #require(try service.request("GET", "/v1/keys", key: admin).json["items"]?.arrayValue?.count)
            let higher = try service.request("POST", "/v1/keys", key: admin, json: #"{"scope":"admin","role":"owner"}"#)
            #expect(higher.status == 422)
            #expect(try higher.json["errors"]?.arrayValue?.first?["pointer"]?.stringValue == "/role")
            let unknown = try service.request("POST", "/v1/keys", key: admin, json: #"{"scope":"admin","role":"superuser"}"#)
            #expect(unknown.status == 422)
            #expect(try unknown.json["errors"]?.arrayValue?.first?["pointer"]?.stringValue == "/role")
            #expect(try service.request("GET", "/v1/keys", key: admin).json["items"]?.arrayValue?.count == before, "nothing created")

            let owner = try service.key(role: .owner)
            let made = try service.request("POST", "/v1/keys", key: owner, json: #"{"scope":"admin","role":"owner"}"#)
            #expect(made.status == 201)
            #expect(try made.json["createdBy"] == .null, "a key made on the command line names nobody")
        }
    }

    /// Each entry names its actor (the key by its name then, or the person) and the client address, as the server
    /// decides it; `person` and `key` narrow the log; `format=csv` exports it.
    @Test func theAuditLogNamesTheActorAndWhereItCameFrom() throws {
        try TestService.with(configure: { $0.server.trustedProxies = TrustedProxies(parsing: "127.0.0.1")! }) { service in
            let ops = try service.personID("ops@example.com")
            let opsKey = try service.key(role: .admin, createdBy: ops)
            let other = try service.key(role: .admin)
            #expect(
                try service.request(
                    "POST", "/v1/teams", key: opsKey, json: #"{"teamId":"ABCDE12345","name":"=Acme"}"#,
                    headers: [("X-Forwarded-For", "203.0.113.7")]
                ).status == 201)
            #expect(try service.request("POST", "/v1/teams", key: other, json: #"{"teamId":"ZYXWV98765","name":"B"}"#).status == 201)

            let all = try #require(try service.request("GET", "/v1/audit?resourceType=team", key: other).json["items"]?.arrayValue)
            #expect(all.count == 2)
            let first = try #require(all.last)
            #expect(first["actor"]?["type"]?.stringValue == "key")
            #expect(first["actor"]?["name"]?.stringValue == "admin key")
            #expect(first["personId"]?.stringValue == ops.canonicalText)
            #expect(first["address"]?.stringValue == "203.0.113.7", "the address the trusted proxy forwarded")
            #expect(all.first?["address"]?.stringValue == "127.0.0.1")
            #expect(all.first?["personId"] == .null)

            let mine = try #require(
                try service.request("GET", "/v1/audit?person=\(ops.canonicalText)", key: other).json["items"]?.arrayValue)
            #expect(mine.map { $0["resourceId"]?.stringValue } == ["ABCDE12345"])
            let keyID = try #require(first["keyId"]?.stringValue)
            let byKey = try #require(try service.request("GET", "/v1/audit?key=\(keyID)", key: other).json["items"]?.arrayValue)
            #expect(byKey.map { $0["resourceId"]?.stringValue } == ["ABCDE12345"])
            #expect(try service.request("GET", "/v1/audit?person=nope", key: other).status == 400)

            let csv = try service.request("GET", "/v1/audit?resourceType=team&format=csv&limit=1", key: other)
            #expect(csv.status == 200)
            #expect(csv.headers["Content-Type"]?.hasPrefix("text/csv") == true)
            #expect(csv.headers["Link"]?.contains("format=csv") == true)
            let rows = try CSVReader.records(csv.body, maxColumns: 64, maxFieldBytes: 1 << 16)
            #expect(rows.first == AuditEntry.csvHeader)
            #expect(rows.count == 2)
            #expect(rows.last?[AuditEntry.csvHeader.firstIndex(of: "resourceId")!] == "ZYXWV98765")
            #expect(rows.last?[AuditEntry.csvHeader.firstIndex(of: "actorType")!] == "key")
            let next = try #require(csv.headers["Link"]?.split(separator: "<").last?.split(separator: ">").first.map(String.init))
            let second = try CSVReader.records(try service.request("GET", next, key: other).body, maxColumns: 64, maxFieldBytes: 1 << 16)
            let after = try #require(second.last?[AuditEntry.csvHeader.firstIndex(of: "after")!])
            #expect(after.contains(#""name":"=Acme""#), "JSON in the cell, not neutralised: it starts with {")
        }
    }
}
