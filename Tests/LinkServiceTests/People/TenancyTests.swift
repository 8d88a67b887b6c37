import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Issue 50's tenancy and safety tests, walking every operation `/openapi.json` documents: a caller of one workspace,
/// whatever its role, reaches nothing of another; a caller reaches no operation its role is not listed for, and a viewer
/// changes nothing through any endpoint.
@Suite("Tenancy and roles through every documented operation")
struct TenancyTests {
    /// One documented operation, as a client reads it from the document.
    struct Operation {
        let method: String
        let path: String
        let id: String
        let roles: [String]
        let requiredQuery: [String]
        let hasBody: Bool
    }

    /// The operations that need credentials, in the document's order, reads first (the rest may change things).
    static func operations(_ service: TestService) throws -> [Operation] {
        let document = try service.request("GET", "/openapi.json").json
        var operations: [Operation] = []
        for member in document["paths"]?.objectMembers ?? [] {
            for operation in member.value.objectMembers ?? [] where operation.key != "parameters" {
                guard let roles = operation.value["x-linkd-roles"]?.arrayValue?.compactMap(\.stringValue) else { continue }
                let required = (operation.value["parameters"]?.arrayValue ?? []).compactMap { parameter -> String? in
                    guard parameter["in"]?.stringValue == "query", parameter["required"] == .bool(true) else { return nil }
                    return parameter["name"]?.stringValue
                }
                operations.append(
                    Operation(
                        method: operation.key.uppercased(), path: member.key,
                        id: operation.value["operationId"]?.stringValue ?? "", roles: roles,
                        requiredQuery: required, hasBody: operation.value["requestBody"] != nil))
            }
        }
        return operations.sorted { ($0.method == "GET" ? 0 : 1) < ($1.method == "GET" ? 0 : 1) }
    }

    /// The resources of a workspace set up by `Fixture`, with a link, a webhook and a second key: what fills in the
    /// path parameters of every operation.
    struct Workspace {
        let fixture: Fixture
        let values: [String: String]
        /// The ids of its rows, none of which a caller of another workspace may ever see.
        let ids: [String]

        init(_ service: TestService, name: String) throws {
            fixture = try Fixture(service, workspace: name)
            let key = fixture.key
            let link = try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/links?acknowledgeMoves=true", key: key,
                    json: """
                        {"domain":"\(fixture.host)","app":"\(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":1}}}
                        """)
            ).json["id"]!.stringValue!
            let webhook = try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/webhooks", key: key,
                    json: """
                        {"url":"http://127.0.0.1:9/hooks","events":["link.created"]}
                        """)
            ).json["id"]!.stringValue!
            let otherKey = try Fixture.expect(201, service.request("POST", "/v1/keys", key: key, json: #"{"scope":"read"}"#)).json["id"]!
                .stringValue!
            let rule = try Fixture.expect(200, service.request("GET", "/v1/domains/\(fixture.host)/rules", key: key))
                .json["items"]!.arrayValue!.first!["id"]!.stringValue!
            values = [
                "host": fixture.host, "teamId": "ABCDE12345", "name": "widgetDetail", "language": "swift", "n": "1",
                "deliveryId": "1", "rule": rule, "apps": fixture.iosApp, "links": link, "webhooks": webhook, "keys": otherKey,
            ]
            ids = [fixture.iosApp, fixture.androidApp, link, webhook, otherKey, rule]
        }

        /// `operation`'s path with this workspace's values, and its required query parameters.
        func target(_ operation: Operation) -> String {
            let segments = operation.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            let path = segments.enumerated().map { index, segment -> String in
                guard segment.hasPrefix("{") else { return segment }
                let name = String(segment.dropFirst().dropLast())
                guard name == "id" else { return values[name, default: "x"] }
                // An `{id}` names a row of the collection it follows (`/v1/apps/{id}`, `…/rules/{id}`).
                return values[segments[index - 1] == "rules" ? "rule" : segments[index - 1], default: "x"]
            }.joined(separator: "/")
            let query: [String] = operation.requiredQuery.map { name in
                switch name {
                case "url": "url=https://\(fixture.host)/widget/1"
                case "dimension": "dimension=path"
                case "from", "to": "\(name)=1"
                case "format": "format=csv"
                default: "\(name)=x"
                }
            }
            return query.isEmpty ? path : path + "?" + query.joined(separator: "&")
        }

        /// What the workspace holds, as its own admin key reads it: compared before and after to show nothing changed.
        func snapshot(_ service: TestService) throws -> [String] {
            let host = fixture.host
            return try [
                "/v1/apps", "/v1/teams", "/v1/domains", "/v1/links", "/v1/webhooks", "/v1/keys", "/v1/domains/\(host)/rules",
                "/v1/apps/\(fixture.iosApp)/destinations", "/v1/domains/\(host)/association/versions", "/v1/audit?limit=200",
            ]
            .map { path in try Fixture.expect(200, service.request("GET", path, key: fixture.key)).text }
        }
    }

    /// `target` with every id and hostname of `workspace` replaced by one that never existed.
    static func nowhere(_ target: String, _ workspace: Workspace) -> String {
        var target = target.replacingOccurrences(of: workspace.fixture.host, with: "nowhere.example.org")
        for id in workspace.ids { target = target.replacingOccurrences(of: id, with: "00000000-0000-4000-8000-000000000000") }
        return target
    }

    /// A caller of workspace A acting as any role answers 404 or 403 for every operation naming B's resources, sees
    /// none of them in any answer, and changes nothing of B.
    @Test func aMemberOfOneWorkspaceReachesNothingOfAnother() throws {
        try TestService.with(configure: WebhookTesting.configure) { service in
            let b = try Workspace(service, name: "globex")
            let before = try b.snapshot(service)
            let operations = try Self.operations(service)
            #expect(operations.count > 60)
            for role in Role.allCases {
                let key = try service.key(workspace: "acme", role: role)
                for operation in operations {
                    let target = b.target(operation)
                    let response = try service.request(operation.method, target, key: key, json: operation.hasBody ? "{}" : nil)
                    let context = "\(role.rawValue): \(operation.method) \(target) answered \(response.status) \(response.text.prefix(300))"
                    if operation.path.contains("{") {
                        // 404 or 403; or, when the request is refused for what it is before any lookup (a body or a
                        // query parameter), the very answer the same request naming nothing gets.
                        let nothing = try service.request(
                            operation.method, Self.nowhere(target, b), key: key,
                            json: operation.hasBody ? "{}" : nil)
                        #expect(
                            [403, 404, nothing.status].contains(response.status) && !(200..<300).contains(response.status),
                            "\(context); naming nothing: \(nothing.status)")
                    }
                    for id in b.ids where !target.contains(id) {
                        #expect(!response.text.contains(id), "\(context): shows \(id) of another workspace")
                    }
                }
            }
            #expect(try b.snapshot(service) == before, "nothing of the other workspace changed")
        }
    }

    /// For every role, every operation that does not list it answers 403 before anything runs; a viewer (even with a key
    /// of the `admin` scope) changes nothing through any operation, those it may call included.
    @Test func aRoleReachesOnlyWhatItIsListedFor() throws {
        try TestService.with(configure: WebhookTesting.configure) { service in
            let a = try Workspace(service, name: "acme")
            let keys = try Dictionary(
                uniqueKeysWithValues: [Role.viewer, .editor, .admin].map { ($0, try service.key(workspace: "acme", role: $0)) })
            let before = try a.snapshot(service)
            let operations = try Self.operations(service)
            let writes = operations.filter { !$0.roles.contains("viewer") }
            #expect(writes.count > 30)
            #expect(
                operations.filter { !["GET", "HEAD"].contains($0.method) }.allSatisfy {
                    !$0.roles.contains("viewer")
                        || [
                            "resolveURLs", "previewRules", "buildLinks",
                            "signOutEverywhere", "signOut", "switchWorkspace", "revokeSession",
                        ].contains($0.id)
                }, "the only non-GET operations a viewer may call read, or end or move their own sessions")
            for role in [Role.viewer, .editor, .admin] {
                let key = keys[role]!
                for operation in operations where role == .viewer || !operation.roles.contains(role.rawValue) {
                    let target = a.target(operation)
                    let response = try service.request(operation.method, target, key: key, json: operation.hasBody ? "{}" : nil)
                    guard !operation.roles.contains(role.rawValue) else { continue }
                    #expect(response.status == 403, "\(role.rawValue): \(operation.method) \(target) answered \(response.status)")
                    #expect(
                        (try? response.json)?["detail"]?.stringValue?.hasSuffix("you act as \(role.rawValue) in acme.") == true,
                        "\(role.rawValue): \(operation.method) \(target): \(response.text.prefix(200))")
                }
                if role == .viewer { #expect(try a.snapshot(service) == before, "a viewer changed nothing") }
            }
            #expect(try a.snapshot(service) == before, "nothing refused changed anything")
        }
    }
}
