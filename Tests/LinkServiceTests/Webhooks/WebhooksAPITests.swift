import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// `/v1/webhooks`: subscriptions, secrets shown once and sealed at rest, targets checked, admin scope, audit.
@Suite("Webhooks API")
struct WebhooksAPITests {
    private static func pointers(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        #expect(response.status == 422, "\(response.text)", sourceLocation: sourceLocation)
        return try response.json["errors"]?.arrayValue?.compactMap { $0["pointer"]?.stringValue } ?? []
    }

    @Test func subscriptionsAreCreatedReadChangedAndDeleted() throws {
        try TestService.with(configure: WebhookTesting.configure) { service in
            let key = try service.key()
            let created = try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/webhooks", key: key,
                    json: """
                        {"url":"http://127.0.0.1:9/hooks","events":["link.created","rules.changed"],"description":"CMS"}
                        """))
            let id = try #require(try created.json["id"]?.stringValue)
            #expect(created.headers["Location"] == "/v1/webhooks/\(id)")
            #expect(created.headers["Cache-Control"] == "no-store")
            let secret = try #require(try created.json["secret"]?.stringValue)
            #expect(WebhookSignature(secret: secret)?.key.count == 32)
            #expect(try created.json["state"]?.stringValue == "active")

            // The secret is never shown again, and is stored sealed: the table holds no byte run of it.
            let read = try Fixture.expect(200, service.request("GET", "/v1/webhooks/\(id)", key: key))
            #expect(try read.json["secret"] == nil)
            #expect(try read.json["events"] == .array([.string("link.created"), .string("rules.changed")]))
            let stored = try service.application.pool.withConnection { connection in
                try connection.query("SELECT secret_sealed, secret_key_id FROM webhooks WHERE id = \(UUID(uuidString: id)!)").first!
                    .decode(([UInt8], String).self)
            }
            let plain = WebhookSignature(secret: secret)!.key
            #expect(stored.1 == "test")
            #expect(!Data(stored.0).contains(Data(plain.prefix(8))))
            #expect(WebhookSecretKeys([WebhookTesting.key])!.unseal(stored.0, keyID: stored.1, for: UUID(uuidString: id)!) == plain)
            #expect(
                WebhookSecretKeys([WebhookTesting.key])!.unseal(stored.0, keyID: stored.1, for: UUID()) == nil,
                "a sealed secret opens only for its subscription")

            let list = try Fixture.expect(200, service.request("GET", "/v1/webhooks", key: key))
            #expect(try list.json["items"]?.arrayValue?.count == 1)

            let etag = read.headers["ETag"]!
            let changed = try Fixture.expect(
                200,
                service.request(
                    "PATCH", "/v1/webhooks/\(id)", key: key, json: #"{"events":["link.deleted"],"description":null}"#,
                    headers: [("If-Match", etag)]))
            #expect(try changed.json["events"] == .array([.string("link.deleted")]))
            #expect(try changed.json["description"]?.stringValue == "")
            #expect(try changed.json["url"]?.stringValue == "http://127.0.0.1:9/hooks")
            let stale = try service.request(
                "PATCH", "/v1/webhooks/\(id)", key: key, json: #"{"description":"x"}"#, headers: [("If-Match", etag)])
            #expect(stale.status == 412)

            let rotated = try Fixture.expect(200, service.request("POST", "/v1/webhooks/\(id)/rotate-secret", key: key))
            let newSecret = try #require(try rotated.json["secret"]?.stringValue)
            #expect(newSecret != secret)
            #expect(rotated.headers["Cache-Control"] == "no-store")

            let paused = try Fixture.expect(200, service.request("POST", "/v1/webhooks/\(id)/pause", key: key))
            #expect(try paused.json["state"]?.stringValue == "paused")
            let resumed = try Fixture.expect(200, service.request("POST", "/v1/webhooks/\(id)/resume", key: key))
            #expect(try resumed.json["state"]?.stringValue == "active")

            let audit = try Fixture.expect(200, service.request("GET", "/v1/audit?resourceType=webhook", key: key))
            let actions = try audit.json["items"]?.arrayValue?.compactMap { $0["action"]?.stringValue } ?? []
            #expect(actions.filter { $0 == "update" }.count == 4 && actions.contains("create"), "\(actions)")
            #expect(!audit.text.contains(newSecret) && !audit.text.contains(secret), "no secret in the audit log")

            try Fixture.expect(204, service.request("DELETE", "/v1/webhooks/\(id)", key: key))
            #expect(try service.request("GET", "/v1/webhooks/\(id)", key: key).status == 404)
        }
    }

    @Test func badInputIsRefusedAndChangesNothing() throws {
        try TestService.with(configure: WebhookTesting.configure) { service in
            let key = try service.key()
            #expect(
                try Self.pointers(
                    service.request("POST", "/v1/webhooks", key: key, json: #"{"url":"http://127.0.0.1:9/","events":["link.exploded"]}"#))
                    == ["/events/0"])
            #expect(
                try Self.pointers(service.request("POST", "/v1/webhooks", key: key, json: #"{"url":"http://127.0.0.1:9/","events":[]}"#))
                    == ["/events"])
            #expect(
                try Self.pointers(
                    service.request(
                        "POST", "/v1/webhooks", key: key, json: #"{"url":"http://127.0.0.1:9/","events":["link.created","link.created"]}"#))
                    == ["/events"])
            #expect(try Self.pointers(service.request("POST", "/v1/webhooks", key: key, json: #"{"events":["link.created"]}"#)) == ["/url"])
            #expect(
                try Self.pointers(
                    service.request("POST", "/v1/webhooks", key: key, json: #"{"url":"ftp://x.example/","events":["link.created"]}"#)) == [
                        "/url"
                    ])
            #expect(
                try Self.pointers(
                    service.request("POST", "/v1/webhooks", key: key, json: #"{"url":"http://u:p@127.0.0.1:9/","events":["link.created"]}"#)
                ) == ["/url"])
            #expect(
                try Self.pointers(
                    service.request("POST", "/v1/webhooks", key: key, json: #"{"url":"http://127.0.0.1:9/","events":["webhook.test"]}"#))
                    == ["/events/0"])
            #expect(
                try service.request(
                    "POST", "/v1/webhooks", key: key, json: #"{"url":"http://127.0.0.1:9/","events":["link.created"],"secret":"x"}"#
                ).status == 422)
            #expect(try service.request("POST", "/v1/webhooks", key: key, json: "[").status == 400)
            // A key that may write but not administer cannot see or make subscriptions.
            let writer = try service.key(scope: .write)
            #expect(try service.request("GET", "/v1/webhooks", key: writer).status == 403)
            #expect(
                try service.request("POST", "/v1/webhooks", key: writer, json: #"{"url":"http://127.0.0.1:9/","events":["link.created"]}"#)
                    .status == 403)
            #expect(try Fixture.expect(200, service.request("GET", "/v1/webhooks", key: key)).json["items"] == .array([]))
            #expect(try service.request("GET", "/v1/webhooks/\(UUID().uuidString.lowercased())", key: key).status == 404)
            #expect(try service.request("GET", "/v1/webhooks/nope/deliveries", key: key).status == 404)
        }
    }

    /// The delivery log pages as every list does (`Page`): `limit`, the opaque cursor of `next` and the `Link`
    /// header, and a cursor it did not issue refused with the same problem as any list's.
    @Test func deliveriesPageAsEveryList() throws {
        try TestService.with(configure: WebhookTesting.configure) { service in
            let key = try service.key()
            let created = try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/webhooks", key: key,
                    json: """
                        {"url":"http://127.0.0.1:9/hooks","events":["link.created"]}
                        """))
            let id = try #require(try created.json["id"]?.stringValue)
            for _ in 0..<3 { try Fixture.expect(202, service.request("POST", "/v1/webhooks/\(id)/test", key: key)) }

            let first = try Fixture.expect(200, service.request("GET", "/v1/webhooks/\(id)/deliveries?limit=2", key: key))
            #expect(try first.json["items"]?.arrayValue?.count == 2)
            let next = try #require(try first.json["next"]?.stringValue)
            #expect(first.headers["Link"] == "<\(next)>; rel=\"next\"")
            let second = try Fixture.expect(200, service.request("GET", next, key: key))
            #expect(try second.json["items"]?.arrayValue?.count == 1)
            #expect(try second.json["next"] == .null)
            let ids = try (first.json["items"]!.arrayValue! + second.json["items"]!.arrayValue!).compactMap { $0["id"] }
            #expect(Set(ids.map { "\($0)" }).count == 3, "three deliveries, none twice")

            for cursor in ["12", "abc", String(repeating: "A", count: 500)] {
                let refused = try service.request("GET", "/v1/webhooks/\(id)/deliveries?cursor=\(cursor)", key: key)
                let elsewhere = try service.request("GET", "/v1/webhooks?cursor=\(cursor)", key: key)
                #expect(refused.status == 400, "\(cursor): \(refused.text)")
                #expect(try refused.json["detail"] == elsewhere.json["detail"])
            }
            #expect(
                try service.request("GET", "/v1/webhooks/\(id)/deliveries?limit=0", key: key).json["detail"]
                    == service.request("GET", "/v1/webhooks?limit=0", key: key).json["detail"])
        }
    }

    /// Private, link-local and metadata targets are refused when given, naming the range, without being contacted;
    /// plain http only when allowed.
    @Test func privateAndMetadataTargetsAreRefused() throws {
        try TestService.with { service in
            #expect(
                service.application.configuration.webhooks.allowedRanges.isEmpty && !service.application.configuration.webhooks.allowHTTP)
            let key = try service.key()
            for (url, range) in [
                ("https://10.0.0.1/hooks", "10.0.0.0/8"), ("https://169.254.169.254/latest/meta-data", "169.254.169.254/32"),
                ("https://127.0.0.1/", "127.0.0.0/8"), ("https://[::1]/", "::1/128"), ("https://localhost/", "localhost resolves to"),
            ] {
                let response = try service.request("POST", "/v1/webhooks", key: key, json: #"{"url":"\#(url)","events":["link.created"]}"#)
                #expect(try Self.pointers(response) == ["/url"], "\(url)")
                #expect(response.text.contains(range), "\(url): \(response.text)")
            }
            let http = try service.request(
                "POST", "/v1/webhooks", key: key, json: #"{"url":"http://hooks.example.com/","events":["link.created"]}"#)
            #expect(try Self.pointers(http) == ["/url"])
            #expect(http.text.contains("https"))
        }
    }

    /// The event types and their payloads are in the OpenAPI document (`webhooks`), each with its schema.
    @Test func theDocumentDescribesEveryEvent() throws {
        try TestService.with(configure: WebhookTesting.configure) { service in
            let document = try Fixture.expect(200, service.request("GET", "/openapi.json")).json
            for type in WebhookEventType.allCases {
                let reference = document["webhooks"]?[type.rawValue]?["post"]?["requestBody"]?["content"]?["application/json"]?["schema"]?[
                    "$ref"]?.stringValue
                let name = try #require(reference?.split(separator: "/").last.map(String.init), "\(type.rawValue)")
                #expect(document["components"]?["schemas"]?[name]?["properties"]?["data"] != nil, "\(name)")
            }
            let types = try Fixture.expect(200, service.request("GET", "/v1/webhooks/events", key: service.key())).json
            #expect(types["items"]?.arrayValue?.compactMap { $0["type"]?.stringValue } == WebhookEventType.subscribable.map(\.rawValue))
        }
    }
}
