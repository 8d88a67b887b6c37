import Foundation
import HTTPServer
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Drives every kind of endpoint over HTTP and holds the real answers against the document: each status
/// must be documented for its operation and, when `python3` with `jsonschema` is installed, each JSON body
/// must validate against the documented response schema, each accepted request (body and query) against the
/// documented request schemas, and each request the server refuses for its shape must fail them: the
/// schemas say what the server enforces.
@Suite("OpenAPI conformance")
struct OpenAPIConformanceTests {
    /// One exchange: the operation it exercised and what came back.
    struct Sample {
        let method: String
        let template: String
        /// The path and query sent.
        let target: String
        let request: String?
        /// The server refused the request for what the schemas describe (a pattern, a length, a type): the
        /// request's body or query must not validate.
        let refused: Bool
        let status: Int
        let contentType: String?
        let body: String
    }

    /// Sends requests through a `TestService` and records them as samples.
    final class Recorder {
        let service: TestService
        private(set) var samples: [Sample] = []

        init(_ service: TestService) { self.service = service }

        @discardableResult
        func call(
            _ method: String, _ template: String, _ path: String? = nil, key: String? = nil, json: String? = nil,
            body: String? = nil, headers: [(String, String)] = [], expect status: Int, refused: Bool = false,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> TestResponse {
            let response = try service.request(method, path ?? template, key: key, json: json, body: body, headers: headers)
            #expect(response.status == status, "\(method) \(path ?? template): \(response.text)", sourceLocation: sourceLocation)
            samples.append(
                Sample(
                    method: method, template: template, target: path ?? template, request: json, refused: refused,
                    status: response.status, contentType: response.headers["Content-Type"], body: response.text))
            return response
        }

        /// Sends raw request bytes (for what the HTTP layer refuses before routing) and records the answer.
        func send(
            _ method: String, _ template: String, _ target: String, headers: [(String, String)], expect status: Int,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let client = try HTTPTestClient(port: service.port)
            let response = try client.request(method, target, headers: headers + [("Connection", "close")])
            #expect(response.status == status, "\(method) \(template): \(response.text)", sourceLocation: sourceLocation)
            samples.append(
                Sample(
                    method: method, template: template, target: template, request: nil, refused: false,
                    status: response.status, contentType: response.headers["Content-Type"], body: response.text))
        }
    }

    @Test func answersMatchTheDocument() throws {
        let samples = try TestService.with(configure: { $0.webhooks.keys = WebhookSecretKeys([.generate(id: "test")]) }) { service in
            let recorder = Recorder(service)
            try Self.exercise(recorder)
            return recorder.samples
        }
        let document = try OpenAPIDocumentTests.document()
        for sample in samples {
            let operation = document["paths"]?[sample.template]?[sample.method.lowercased()]
            #expect(operation != nil, "\(sample.method) \(sample.template) is documented")
            let documented = (operation?["responses"]?.objectMembers ?? []).map(\.key)
            #expect(
                documented.contains(String(sample.status)),
                "\(sample.method) \(sample.template) documents \(sample.status); has \(documented)")
        }
        if SchemaValidator.isAvailable {
            let output = try SchemaValidator.validate(samples, against: document)
            #expect(output.status == 0, "response/request bodies that do not match their schemas:\n\(output.text)")
        }
    }

    /// A tour of the API: every resource's create, read, list, update and delete, plus the usual errors.
    static func exercise(_ api: Recorder) throws {
        let admin = try api.service.key()
        let reader = try api.service.key(scope: .read)
        for (template, method) in [("/healthz", "GET"), ("/readyz", "GET"), ("/metrics", "GET"), ("/openapi.json", "GET")] {
            try api.call(method, template, expect: 200)
        }
        // What the HTTP layer refuses before routing, on any operation: a long target, a huge header, a large body.
        try api.send("GET", "/healthz", "/healthz?" + String(repeating: "a", count: 9000), headers: [], expect: 414)
        try api.send("GET", "/healthz", "/healthz", headers: [("X-Padding", String(repeating: "a", count: 17_000))], expect: 431)
        try api.send(
            "POST", "/v1/teams", "/v1/teams", headers: [("Content-Type", "application/json"), ("Content-Length", "2000000")],
            expect: 413)

        // Keys
        let key = try api.call("POST", "/v1/keys", key: admin, json: #"{"name":"ci","scope":"write"}"#, expect: 201).json
        let writer = try #require(key["key"]?.stringValue)
        try api.call("GET", "/v1/keys", "/v1/keys?limit=1", key: admin, expect: 200)
        try api.call("GET", "/v1/keys", "/v1/keys?limit=500", key: admin, expect: 400, refused: true)
        try api.call("POST", "/v1/keys", key: admin, json: #"{"name":null,"scope":"read"}"#, expect: 201) // null reads as absent
        try api.call("POST", "/v1/keys", key: writer, json: #"{"scope":"admin"}"#, expect: 403)
        try api.call("POST", "/v1/keys", key: admin, json: #"{"scope":"root"}"#, expect: 422)
        let spare = try api.call("POST", "/v1/keys", key: admin, json: #"{"scope":"read"}"#, expect: 201).json
        try api.call("DELETE", "/v1/keys/{id}", "/v1/keys/\(spare["id"]!.stringValue!)", key: admin, expect: 204)
        try api.call("DELETE", "/v1/keys/{id}", "/v1/keys/00000000-0000-0000-0000-000000000000", key: admin, expect: 404)

        // Members, invitations, password resets: an owner's (admins may read)
        let owner = try api.service.key(scope: .admin, role: .owner)
        let acme = try api.service.workspaceID()
        try api.service.member("owner@example.com", .owner, of: acme)
        let member = try api.service.member("member@example.com", .editor, of: acme)
        let memberPath = "/v1/members/\(member.id.canonicalText)"
        try api.call("GET", "/v1/members", key: admin, expect: 200)
        try api.call("PATCH", "/v1/members/{personId}", memberPath, key: owner, json: #"{"role":"viewer"}"#, expect: 200)
        try api.call("PATCH", "/v1/members/{personId}", memberPath, key: owner, json: #"{"role":"root"}"#, expect: 422, refused: true)
        try api.call("DELETE", "/v1/members/{personId}", memberPath, key: owner, expect: 204)
        try api.call("DELETE", "/v1/members/{personId}", memberPath, key: owner, expect: 404)
        let invited = try api.call(
            "POST", "/v1/invitations", key: owner, json: #"{"email":"new@example.com","role":"editor"}"#, expect: 201
        ).json
        try api.call("POST", "/v1/invitations", key: owner, json: #"{"email":"owner@example.com","role":"editor"}"#, expect: 409)
        try api.call("POST", "/v1/invitations", key: owner, json: #"{"email":"x","role":"editor"}"#, expect: 422, refused: true)
        try api.call("GET", "/v1/invitations", key: admin, expect: 200)
        let invitationToken = invited["link"]!.stringValue!.components(separatedBy: "token=").last!
        try api.call(
            "POST", "/v1/invitations/accept", json: #"{"token":"\#(invitationToken)","password":"short"}"#, expect: 422, refused: true)
        try api.call(
            "POST", "/v1/invitations/accept", json: #"{"token":"\#(invitationToken)","name":"New","password":"a long enough password"}"#,
            expect: 201)
        try api.call(
            "POST", "/v1/invitations/accept", json: #"{"token":"\#(invitationToken)","password":"a long enough password"}"#, expect: 410)
        let spareInvitation = try api.call(
            "POST", "/v1/invitations", key: owner, json: #"{"email":"spare@example.com","role":"viewer"}"#,
            expect: 201
        ).json["invitation"]!["id"]!.stringValue!
        try api.call("DELETE", "/v1/invitations/{id}", "/v1/invitations/\(spareInvitation)", key: owner, expect: 204)
        try api.call("POST", "/v1/password-resets", json: #"{"email":"new@example.com"}"#, expect: 202)
        // Sessions
        try api.service.person("ops@example.com", in: [("acme", .owner), ("beta", .viewer)])
        let signIn = #"{"email":"ops@example.com","password":"correct horse battery"}"#
        let cookie = try #require(try api.call("POST", "/v1/sessions", json: signIn, expect: 201).sessionCookie)
        let other = try #require(try api.call("POST", "/v1/sessions", json: signIn, expect: 201).sessionCookie)
        let session = [("Cookie", "linkd_session=\(cookie)"), ("Origin", "http://localhost")]
        try api.call("POST", "/v1/sessions", json: #"{"email":"ops@example.com","password":"wrong password"}"#, expect: 401)
        try api.call("POST", "/v1/sessions", json: #"{"email":"ops@example.com"}"#, expect: 422, refused: true)
        try api.call("GET", "/v1/whoami", headers: session, expect: 200)
        try api.call("GET", "/v1/whoami", headers: [("Cookie", "linkd_session=\(cookie)"), ("Origin", "http://evil.example")], expect: 403)
        let sessions = try api.call("GET", "/v1/sessions", headers: session, expect: 200).json
        try api.call("GET", "/v1/sessions", key: admin, expect: 403)
        let beta = try api.service.workspace("beta").uuidString
        try api.call("PUT", "/v1/sessions/current/workspace", json: #"{"workspace":"\#(beta)"}"#, headers: session, expect: 200)
        try api.call("PUT", "/v1/sessions/current/workspace", json: #"{"workspace":5}"#, headers: session, expect: 422, refused: true)
        let otherID = try #require(sessions["items"]?.arrayValue?.first { $0["current"]?.boolValue == false }?["id"]?.stringValue)
        try api.call("DELETE", "/v1/sessions/{id}", "/v1/sessions/\(otherID)", headers: session, expect: 204)
        try api.call("DELETE", "/v1/sessions/{id}", "/v1/sessions/\(otherID)", headers: session, expect: 404)
        try api.call("GET", "/v1/whoami", headers: [("Cookie", "linkd_session=\(other)")], expect: 401)
        try api.call("DELETE", "/v1/sessions/current", headers: session, expect: 204)
        let last = try #require(try api.call("POST", "/v1/sessions", json: signIn, expect: 201).sessionCookie)
        try api.call(
            "DELETE", "/v1/sessions", headers: [("Cookie", "linkd_session=\(last)"), ("Sec-Fetch-Site", "same-origin")], expect: 204)
        let passwordLink = try Workspace.addPerson(
            pool: api.service.application.pool, workspace: "acme", email: "dev@example.com", role: .editor,
            linkLifetime: 600
        ).text
        try api.call("POST", "/v1/password", json: #"{"token":"\#(passwordLink)","password":"short"}"#, expect: 422, refused: true)
        try api.call("POST", "/v1/password", json: #"{"token":"\#(passwordLink)","password":"dev@example.com"}"#, expect: 422)
        try api.call("POST", "/v1/password", json: #"{"token":"\#(passwordLink)","password":"a long enough password"}"#, expect: 204)
        try api.call("POST", "/v1/password", json: #"{"token":"\#(passwordLink)","password":"a long enough password"}"#, expect: 422)

        // Teams
        let team = #"{"teamId":"ABCDE12345","name":"Acme"}"#
        let teamETag = try api.call("POST", "/v1/teams", key: writer, json: team, expect: 201).headers["ETag"]!
        try api.call("POST", "/v1/teams", key: writer, json: team, expect: 409)
        try api.call("POST", "/v1/teams", key: writer, json: #"{"teamId":"abc","nmae":"x"}"#, expect: 422)
        try api.call("POST", "/v1/teams", key: writer, json: "{", expect: 400)
        try api.call("POST", "/v1/teams", key: writer, headers: [("Content-Type", "text/plain")], expect: 415)
        try api.call("GET", "/v1/teams", expect: 401)
        try api.call("GET", "/v1/teams", key: reader, expect: 200)
        try api.call("GET", "/v1/teams/{teamId}", "/v1/teams/ABCDE12345", key: reader, expect: 200)
        try api.call("GET", "/v1/teams/{teamId}", "/v1/teams/ZZZZZ99999", key: reader, expect: 404)
        try api.call(
            "PATCH", "/v1/teams/{teamId}", "/v1/teams/ABCDE12345", key: writer, json: #"{"name":"Acme Inc"}"#,
            headers: [("If-Match", teamETag)], expect: 200)
        try api.call(
            "PATCH", "/v1/teams/{teamId}", "/v1/teams/ABCDE12345", key: writer, json: #"{"name":"Stale"}"#,
            headers: [("If-Match", teamETag)], expect: 412)
        try api.call("PATCH", "/v1/teams/{teamId}", "/v1/teams/ABCDE12345", key: writer, json: #"{"name":null}"#, expect: 200)

        // Apps
        let ios = try api.call(
            "POST", "/v1/apps", key: writer,
            json: """
                {"platform":"ios","name":"Widgets","teamId":"ABCDE12345","bundleId":"com.example.widgets","appStoreId":"1234567890"}
                """, expect: 201
        ).json["id"]!.stringValue!
        let android = try api.call(
            "POST", "/v1/apps", key: writer,
            json: """
                {"platform":"android","name":"Widgets","packageName":"com.example.widgets",
                 "sha256CertFingerprints":[{"value":"\(String(repeating: "ab", count: 32))","label":"upload"}],"playStoreUrl":"https://play.google.com/store/apps/details?id=com.example.widgets"}
                """, expect: 201
        ).json["id"]!.stringValue!
        try api.call(
            "POST", "/v1/apps", key: writer,
            json: #"{"platform":"ios","name":"Again","teamId":"ABCDE12345","bundleId":"com.example.widgets"}"#, expect: 409)
        try api.call("GET", "/v1/apps", "/v1/apps?platform=ios", key: reader, expect: 200)
        try api.call("GET", "/v1/apps", "/v1/apps?platform=windows", key: reader, expect: 400, refused: true)
        try api.call(
            "POST", "/v1/apps", key: writer,
            json: #"{"platform":"android","name":"Bad","packageName":"com.example.bad","sha256CertFingerprints":[{"value":"AB:CD"}]}"#,
            expect: 422, refused: true)
        try api.call("GET", "/v1/apps/{id}", "/v1/apps/\(android)", key: reader, expect: 200)
        try api.call(
            "PATCH", "/v1/apps/{id}", "/v1/apps/\(ios)", key: writer, json: #"{"appStoreId":null,"customScheme":"widgets"}"#, expect: 200)

        // Destination types
        let destinations = "/v1/apps/\(ios)/destinations"
        try api.call(
            "POST", "/v1/apps/{id}/destinations", destinations, key: writer,
            json: """
                {"name":"widgetDetail","title":"Widget","params":{"id":{"type":"int","min":1},"tab":{"type":"enum","values":["info","reviews"],"optional":true}}}
                """, expect: 201)
        try api.call(
            "POST", "/v1/apps/{id}/destinations", destinations, key: writer, json: #"{"name":"bad","params":{"x":{"type":"float"}}}"#,
            expect: 422)
        try api.call("GET", "/v1/apps/{id}/destinations", destinations, key: reader, expect: 200)
        let destinationETag = try api.call(
            "GET", "/v1/apps/{id}/destinations/{name}", destinations + "/widgetDetail", key: reader, expect: 200
        ).headers["ETag"]!
        try api.call(
            "PUT", "/v1/apps/{id}/destinations/{name}", destinations + "/widgetDetail", key: writer,
            json: """
                {"title":"Widget detail","params":{"id":{"type":"int","min":1},"tab":{"type":"enum","values":["info","reviews"],"optional":true},"ref":{"type":"string","maxLength":20,"optional":true}}}
                """, headers: [("If-Match", destinationETag)], expect: 200)
        try api.call(
            "POST", "/v1/apps/{id}/destinations", destinations, key: writer,
            json: #"{"name":"settings","params":{"on":{"type":"bool"},"u":{"type":"uuid","optional":true}}}"#, expect: 201)
        try api.call("DELETE", "/v1/apps/{id}/destinations/{name}", destinations + "/settings", key: writer, expect: 204)
        try api.call(
            "POST", "/v1/apps/{id}/destinations", destinations, key: writer, json: #"{"name":"bare","title":null,"params":null}"#,
            expect: 201)
        try api.call("DELETE", "/v1/apps/{id}/destinations/{name}", destinations + "/bare", key: writer, expect: 204)

        // Domains
        try api.call(
            "POST", "/v1/domains", key: writer,
            json: """
                {"hostname":"Links.Example.com","defaults":{"caseSensitive":false},"substitutionVariables":{"section":["news","blog"]},
                 "webcredentials":["\(ios)"],"webFallbackUrl":"https://example.com/fallback"}
                """, expect: 201)
        try api.call("POST", "/v1/domains", key: writer, json: #"{"hostname":"links.example.com"}"#, expect: 409)
        for hostname in ["localhost", "a..example.com", "-a.example.com", "links.example.123", "*.*.example.com"] {
            try api.call("POST", "/v1/domains", key: writer, json: #"{"hostname":"\#(hostname)"}"#, expect: 422, refused: true)
        }
        for settings in [
            #""webFallbackUrl":"http://example.com/""#, #""substitutionVariables":{"alpha":["a"]}"#,
            #""substitutionVariables":{"a(b":["a"]}"#, #""substitutionVariables":{"x":["a$$(y)"]}"#,
        ] {
            try api.call(
                "POST", "/v1/domains", key: writer, json: #"{"hostname":"other.example.com","# + settings + "}", expect: 422, refused: true)
        }
        try api.call("GET", "/v1/domains", key: reader, expect: 200)
        let domainETag = try api.call("GET", "/v1/domains/{host}", "/v1/domains/links.example.com", key: reader, expect: 200).headers[
            "ETag"]!
        try api.call(
            "PATCH", "/v1/domains/{host}", "/v1/domains/links.example.com", key: writer,
            json: #"{"legacyPaths":true,"carryPathToFallback":true}"#,
            headers: [("If-Match", domainETag)], expect: 200)
        try api.call("PATCH", "/v1/domains/{host}", "/v1/domains/links.example.com", key: writer, json: #"{"hostname":null}"#, expect: 200)

        // Rules
        let rules = "/v1/domains/links.example.com/rules"
        let list = try api.call(
            "PUT", "/v1/domains/{host}/rules", rules, key: writer,
            json: """
                {"rules":[{"apps":["\(ios)"],"path":"/widget/{id}","query":{"tab":"{tab}"},"comment":"widgets","destination":{"type":"widgetDetail","params":{"id":"{id}"}}}]}
                """, expect: 200)
        try api.call(
            "PUT", "/v1/domains/{host}/rules", rules, key: writer,
            json: #"{"rules":[{"apps":["\#(ios)"],"path":"/w/{id}","destination":{"type":"nope"}}]}"#,
            headers: [("If-Match", list.headers["ETag"]!)], expect: 422)
        let inserted = try api.call(
            "POST", "/v1/domains/{host}/rules", rules, key: writer,
            json: #"{"apps":["\#(ios)"],"path":"/help/*","exclude":true,"position":0}"#,
            expect: 201)
        let rule = rules + "/" + (try inserted.json["id"]!.stringValue!)
        try api.call("GET", "/v1/domains/{host}/rules", rules, key: reader, expect: 200)
        try api.call("GET", "/v1/domains/{host}/rules/{id}", rule, key: reader, expect: 200)
        try api.call(
            "PATCH", "/v1/domains/{host}/rules/{id}", rule, key: writer, json: #"{"comment":"help pages","position":1}"#,
            headers: [("If-Match", inserted.headers["ETag"]!)], expect: 200)
        try api.call("POST", "/v1/domains/{host}/preview", "/v1/domains/links.example.com/preview", key: reader, json: "{}", expect: 200)
        try api.call(
            "POST", "/v1/domains/{host}/preview", "/v1/domains/links.example.com/preview", key: reader,
            json: """
                {"rules":[{"apps":["\(ios)","\(android)"],"path":"/widget/{id}","destination":{"type":"widgetDetail"}}]}
                """, expect: 422)

        // Association files and resolve, once the catalog (updated through NOTIFY) has the final rules: the help
        // rule moved behind the widget rule (the insert at position 0 is served first, then the move; waiting
        // for "/help/" alone let the move's reload change the ETag in the middle of the conditional requests).
        func hasFinalRules() -> Bool {
            guard let aasa = api.service.application.catalog.entry(exactly: "links.example.com")?.compiled.aasaJSON,
                let widget = aasa.range(of: "/widget/"), let help = aasa.range(of: "/help/")
            else { return false }
            return widget.lowerBound < help.lowerBound
        }
        #expect(eventually { hasFinalRules() })
        let host = [("Host", "links.example.com")]
        let aasa = try api.call("GET", "/.well-known/apple-app-site-association", headers: host, expect: 200)
        try api.call(
            "GET", "/.well-known/apple-app-site-association", headers: host + [("If-None-Match", aasa.headers["ETag"]!)], expect: 304)
        try api.call("GET", "/.well-known/apple-app-site-association", headers: [("Host", "unknown.example")], expect: 404)
        try api.call("GET", "/apple-app-site-association", headers: host, expect: 200)
        try api.call("GET", "/v1/domains/{host}", "/v1/domains/links.example.com", key: reader, expect: 200) // with lastFetch
        try api.call("GET", "/.well-known/assetlinks.json", headers: host, expect: 200)
        try api.call("GET", "/v1/domains/{host}/aasa", "/v1/domains/links.example.com/aasa", key: reader, expect: 200)
        try api.call(
            "GET", "/v1/domains/{host}/aasa", "/v1/domains/links.example.com/aasa", key: reader,
            headers: [("If-None-Match", aasa.headers["ETag"]!)], expect: 304)
        try api.call("GET", "/v1/domains/{host}/assetlinks", "/v1/domains/links.example.com/assetlinks", key: reader, expect: 200)
        try api.call("GET", "/v1/domains/{host}/assetlinks", "/v1/domains/nope.example.com/assetlinks", key: reader, expect: 404)
        try api.call(
            "GET", "/v1/resolve", "/v1/resolve?url=https%3A%2F%2Flinks.example.com%2Fwidget%2F42%3Ftab%3Dinfo", key: reader, expect: 200)
        try api.call(
            "GET", "/v1/resolve", "/v1/resolve?url=https%3A%2F%2Flinks.example.com%2Fwidget%2F0&log=false", key: reader, expect: 200)
        try api.call("GET", "/v1/resolve", "/v1/resolve?url=https%3A%2F%2Fother.example%2F&platform=android", key: reader, expect: 200)
        try api.call("GET", "/v1/resolve", key: reader, expect: 400)
        try api.call("GET", "/v1/resolve", "/v1/resolve?url=widgets%3A%2F%2Fwidget%2F42", key: reader, expect: 200)
        try api.call(
            "POST", "/v1/links/build", key: reader,
            json: #"{"app":"\#(ios)","destination":{"type":"widgetDetail","params":{"id":42,"tab":"info"}}}"#, expect: 200)
        try api.call(
            "POST", "/v1/links/build", key: reader,
            json: """
                {"links":[{"app":"\(ios)","destination":{"type":"widgetDetail","params":{"id":42,"tab":"info"}}},{"app":"\(ios)","destination":{"type":"widgetDetail","params":{"id":0}}}]}
                """, expect: 200)
        try api.call(
            "POST", "/v1/links/build", key: reader, json: #"{"app":"\#(ios)","destination":{"type":"widgetDetail","params":{"id":"x"}}}"#,
            expect: 422)
        try api.call(
            "POST", "/v1/links/build", key: reader, json: #"{"app":"\#(ios)","destination":{"type":"widgetDetail"},"extra":1}"#,
            expect: 422, refused: true)
        for url in ["javascript%3Aalert(1)", "not%20a%20url", "https%3A%2F%2Flinks.example.com%3A99x%2F"] {
            try api.call("GET", "/v1/resolve", "/v1/resolve?url=" + url, key: reader, expect: 400, refused: true)
        }
        try api.call(
            "POST", "/v1/resolve", key: reader,
            json: """
                {"urls":["https://links.example.com/widget/7","https://links.example.com/help/faq","https://links.example.com/nothing"],"platform":"ios"}
                """, expect: 200)
        try api.call("POST", "/v1/resolve", key: reader, json: #"{"urls":["not a url"]}"#, expect: 422, refused: true)
        try api.call(
            "POST", "/v1/resolve", key: reader, json: #"{"urls":["https://links.example.com:65536/"]}"#, expect: 422, refused: true)
        try api.call(
            "POST", "/v1/resolve", key: reader, json: #"{"urls":["https://links.example.com:65535/","HTTP://links.example.com:/"]}"#,
            expect: 200)
        try api.call("GET", "/v1/audit", "/v1/audit?limit=3", key: reader, expect: 200)
        try api.call("GET", "/v1/audit", "/v1/audit?resourceType=rules", key: reader, expect: 200)

        // Links
        let link = try api.call(
            "POST", "/v1/links", key: writer,
            json: """
                {"domain":"links.example.com","slug":"spring/24","app":"\(ios)","destination":{"type":"widgetDetail","params":{"id":42}},
                 "fallbacks":{"ios":"https://example.com/ios","desktop":null},"campaign":{"source":"mail","campaign":"spring24"},"tags":["spring"],
                 "preview":{"title":"Spring","imageUrl":"https://cdn.example.com/s.png"},"expiresAt":"2030-01-01T00:00:00Z","maxClicks":10,
                 "name":"Spring","data":{"coupon":"SPRING"}}
                """, expect: 201)
        // Links to web pages stand on a domain whose links open no app (docs/LINKS.md, "The link space").
        try api.call("POST", "/v1/domains", key: writer, json: #"{"hostname":"web.example.com"}"#, expect: 201)
        try api.call(
            "POST", "/v1/links", key: writer, json: #"{"domain":"web.example.com","url":"https://example.com/w","slug":null,"name":null}"#,
            expect: 201)
        try api.call("POST", "/v1/links", key: writer, json: #"{"domain":"links.example.com","url":"https://example.com/w"}"#, expect: 422)
        try api.call(
            "POST", "/v1/links", key: writer,
            json: """
                {"domain":"links.example.com","slug":"spring/24","app":"\(ios)","destination":{"type":"widgetDetail","params":{"id":4}}}
                """, expect: 409)
        try api.call(
            "POST", "/v1/links", "/v1/links?acknowledgeMoves=maybe", key: writer,
            json: #"{"domain":"web.example.com","url":"https://example.com/m"}"#,
            expect: 400, refused: true)
        try api.call(
            "POST", "/v1/links", key: writer,
            json: #"{"domain":"web.example.com","slug":"v1x/.well-known/..a","url":"https://example.com"}"#, expect: 201)
        for body in [
            #"{"domain":"links.example.com","slug":"v1/x","url":"https://example.com"}"#,
            #"{"domain":"links.example.com","slug":"a//b","url":"https://example.com"}"#,
            #"{"domain":"links.example.com","slug":"a/../b","url":"https://example.com"}"#,
            #"{"domain":"links.example.com","slug":"Console/x","url":"https://example.com"}"#,
            #"{"domain":"links.example.com","url":"http://example.com"}"#,
            #"{"domain":"links.example.com","url":"https://example.com","maxClicks":0}"#,
            #"{"domain":"links.example.com","url":"https://example.com","tags":[""]}"#,
            #"{"domain":"links.example.com","url":"https://example.com","name":"invoice\u202Egpj.exe"}"#,
            #"{"domain":"links.example.com","url":"https://example.com","tags":["a\u2066b"]}"#,
            #"{"domain":"links.example.com","url":"https://example.com","campaign":{"medium":1}}"#,
            #"{"domain":"links.example.com","url":"https://example.com","extra":1}"#,
            #"{"url":"https://example.com"}"#,
        ] {
            try api.call("POST", "/v1/links", key: writer, json: body, expect: 422, refused: true)
        }
        try api.call(
            "POST", "/v1/links", key: writer,
            json: #"{"domain":"links.example.com","app":"\#(ios)","destination":{"type":"widgetDetail","params":{"id":0}}}"#,
            expect: 422)
        // Links in bulk: only items the schema accepts are sent as JSON here (a bad item is refused on its own, in a 200).
        try api.call(
            "POST", "/v1/links/bulk", key: writer,
            json: """
                [{"domain":"links.example.com","slug":"bulk/1","url":"https://example.com/1"},
                 {"domain":"links.example.com","app":"\(ios)","destination":{"type":"widgetDetail","params":{"id":7}},"tags":["bulk"]}]
                """, expect: 200)
        try api.call(
            "POST", "/v1/links/bulk", key: writer, json: #"[{"domain":"links.example.com","slug":"bulk/1","url":"https://example.com/1"}]"#,
            expect: 200)
        try api.call(
            "POST", "/v1/links/bulk", key: writer, body: #"{"domain":"links.example.com","url":"https://example.com/n"}"# + "\n",
            headers: [("Content-Type", "application/x-ndjson")], expect: 200)
        try api.call("POST", "/v1/links/bulk", key: writer, json: #"{"domain":"links.example.com"}"#, expect: 422, refused: true)
        try api.call("POST", "/v1/links/bulk", key: writer, body: "[]", headers: [("Content-Type", "text/plain")], expect: 415)
        let csv = [("Content-Type", "text/csv")]
        try api.call(
            "POST", "/v1/links/import", "/v1/links/import?format=csv&dryRun=true", key: writer,
            body: "slug,url\r\ncsv1,https://example.com/c\r\nv1/x,https://example.com\r\n", headers: csv, expect: 200)
        try api.call(
            "POST", "/v1/links/import", "/v1/links/import?format=firebase&dryRun=false", key: writer,
            body: "Short link,Deep link (link)\nhttps://links.example.com/fdl,https://example.com/widget/3\n", headers: csv, expect: 200)
        try api.call(
            "POST", "/v1/links/import", "/v1/links/import?format=csv&domain=links.example.com", key: writer,
            body: "Clicks\n1\n", headers: csv, expect: 400)
        try api.call(
            "POST", "/v1/links/import", "/v1/links/import?format=xml", key: writer, body: "a", headers: csv, expect: 400, refused: true)
        try api.call("GET", "/v1/links/export", "/v1/links/export?limit=2&tag=bulk", key: writer, expect: 200)
        try api.call("GET", "/v1/links/export", "/v1/links/export?limit=0", key: writer, expect: 400, refused: true)
        try api.call("GET", "/v1/links/export", key: reader, expect: 403) // a viewer: exports are for editors
        let linkPath = "/v1/links/" + (try link.json["id"]!.stringValue!)
        try api.call(
            "GET", "/v1/links",
            "/v1/links?domain=links.example.com&tag=spring&campaign=spring24&destinationType=widgetDetail&q=spr&limit=1",
            key: reader, expect: 200)
        try api.call("GET", "/v1/links/{id}", linkPath, key: reader, expect: 200)
        try api.call("GET", "/v1/links/{id}/experiment", linkPath + "/experiment", key: reader, expect: 200)
        try api.call(
            "PATCH", "/v1/links/{id}", linkPath, key: writer, json: #"{"name":null,"tags":["a","b"],"preview":null}"#,
            headers: [("If-Match", link.headers["ETag"]!)], expect: 200)
        try api.call(
            "PATCH", "/v1/links/{id}", linkPath, key: writer, json: #"{"name":"Stale"}"#, headers: [("If-Match", link.headers["ETag"]!)],
            expect: 412)
        try api.call("PATCH", "/v1/links/{id}", linkPath, key: writer, json: #"{"url":"https://example.com"}"#, expect: 422)
        try api.call("DELETE", "/v1/links/{id}", linkPath, key: writer, expect: 204)
        try api.call("GET", "/v1/links/{id}/experiment", linkPath + "/experiment", key: reader, expect: 404)
        try api.call("GET", "/v1/links/{id}", linkPath, key: reader, expect: 404)

        // Events: one, a batch with one refused and one duplicate, a refused single, a viewer refused.
        try api.call(
            "POST", "/v1/events", key: writer, json: #"{"name":"install","app":"\#(ios)","idempotencyKey":"i-1","visitorId":"v"}"#,
            expect: 202)
        try api.call(
            "POST", "/v1/events", key: writer,
            json:
                #"{"events":[{"name":"open","idempotencyKey":"o-1","url":"https://links.example.com/widget/1"},{"name":"purchase","idempotencyKey":"p-1","visitorId":"v","value":100,"currency":"USD","time":"2026-01-01T00:00:00Z"},{"name":"purchase","idempotencyKey":"p-2","currency":"XXX1"},{"name":"install","idempotencyKey":"i-1"}]}"#,
            expect: 202)
        try api.call(
            "POST", "/v1/events", key: writer, json: #"{"name":"purchase","idempotencyKey":"p-3","value":-1,"currency":"USD"}"#,
            expect: 422, refused: true)
        try api.call("POST", "/v1/events", key: reader, json: #"{"name":"signup","idempotencyKey":"s-1"}"#, expect: 403)
        let appKey = try api.call("POST", "/v1/apps/{id}/event-key", "/v1/apps/\(android)/event-key", key: writer, expect: 200).json["key"]!
            .stringValue!
        try api.call(
            "POST", "/v1/events", json: #"{"name":"install","idempotencyKey":"i-2"}"#, headers: [("X-Linkd-App-Key", appKey)], expect: 202)
        try api.call("DELETE", "/v1/apps/{id}/event-key", "/v1/apps/\(android)/event-key", key: writer, expect: 204)
        try api.call("GET", "/v1/events/settings", key: reader, expect: 200)
        try api.call("PUT", "/v1/events/settings", key: writer, json: #"{"attributionWindowDays":91}"#, expect: 422, refused: true)
        try api.call("PUT", "/v1/events/settings", key: writer, json: #"{"attributionWindowDays":7}"#, expect: 200)
        // The export (CSV and NDJSON, a bad filter) and an erasure (one, a bad visitor, a viewer refused).
        try api.call("GET", "/v1/events/export", "/v1/events/export?kind=named&limit=1", key: writer, expect: 200)
        try api.call("GET", "/v1/events/export", "/v1/events/export?visitorId=v&from=2026-01-01T00:00:00Z", key: writer, expect: 200)
        try api.call("GET", "/v1/events/export", "/v1/events/export?kind=bogus", key: writer, expect: 400, refused: true)
        try api.call("DELETE", "/v1/events", "/v1/events?visitorId=v", key: reader, expect: 403)
        try api.call("DELETE", "/v1/events", "/v1/events?visitorId=", key: writer, expect: 400, refused: true)
        try api.call("DELETE", "/v1/events", "/v1/events?visitorId=v", key: writer, expect: 200)

        // Analytics: JSON, or CSV by `format` or `Accept`; the time range and zone as the schemas write them.
        try api.call(
            "GET", "/v1/analytics/summary", "/v1/analytics/summary?from=2026-11-01&to=2026-11-02T06:30:00%2B01:00&tz=Europe%2FParis",
            key: reader, expect: 200)
        try api.call("GET", "/v1/analytics/timeseries", "/v1/analytics/timeseries?format=csv", key: reader, expect: 200)
        try api.call(
            "GET", "/v1/analytics/top", "/v1/analytics/top?dimension=path", key: reader, headers: [("Accept", "text/csv")], expect: 200)
        // Links and campaigns: filters on every endpoint, dimensions of the top list and the series.
        try api.call("GET", "/v1/analytics/top", "/v1/analytics/top?dimension=variant&target=germany", key: reader, expect: 200)
        try api.call("GET", "/v1/analytics/timeseries", "/v1/analytics/timeseries?groupBy=target&variant=b", key: reader, expect: 200)
        try api.call(
            "GET", "/v1/analytics/summary",
            "/v1/analytics/summary?link=7b1a6c8e-2f0e-4b8a-9d8e-2f5c1f3f8a11&utm_source=news&utm_medium=email"
                + "&utm_campaign=spring+sale&utm_term=shoes&utm_content=hero", key: reader, expect: 200)
        try api.call("GET", "/v1/analytics/top", "/v1/analytics/top?dimension=utm_campaign&utm_source=news", key: reader, expect: 200)
        try api.call("GET", "/v1/analytics/top", "/v1/analytics/top?dimension=link&limit=5", key: reader, expect: 200)
        try api.call(
            "GET", "/v1/analytics/timeseries", "/v1/analytics/timeseries?groupBy=utm_medium&link=7b1a6c8e-2f0e-4b8a-9d8e-2f5c1f3f8a11",
            key: reader, expect: 200)
        // The JSON answers over the hits of the resolves above (real rules, apps and destination types, which name the
        // items), each against its schema: every shape the handlers write, groups, names and the previous period included.
        #expect(eventually { api.service.application.hits.counters.written > 0 })
        for query in [
            "summary?source=all&compare=previous", "summary?source=all&app=\(ios)&period=today&includeBots=true",
            "timeseries?source=all&groupBy=rule&compare=previous", "timeseries?source=all&interval=hour&groupBy=source",
            "timeseries?source=all&groupBy=destination&period=7d&tz=Europe%2FParis",
            "top?dimension=rule&source=all&compare=previous", "top?dimension=destination&source=all&sort=visitors",
            "top?dimension=app&source=all", "top?dimension=host&source=resolve&compare=previous",
            "top?dimension=path&source=all&compare=previous", "top?dimension=referrer&source=all",
        ] {
            let template = "/v1/analytics/" + query.prefix { $0 != "?" }
            let answer = try api.call("GET", template, "/v1/analytics/" + query, key: reader, expect: 200)
            #expect(answer.headers["Content-Type"]?.hasPrefix("application/json") == true)
        }
        let top = try api.call("GET", "/v1/analytics/top", "/v1/analytics/top?dimension=rule&source=all", key: reader, expect: 200).json
        #expect(top["items"]?.arrayValue?.first?["position"].map { $0 != .null } == true, "rules are named by path and position: \(top)")
        for query in ["utm_source=", "utm_term=" + String(repeating: "x", count: 201)] {
            try api.call("GET", "/v1/analytics/summary", "/v1/analytics/summary?" + query, key: reader, expect: 400, refused: true)
        }
        for query in ["from=0000000000", "from=2026-11-01T00:00", "tz=Mars%2FOlympus"] {
            try api.call("GET", "/v1/analytics/summary", "/v1/analytics/summary?" + query, key: reader, expect: 400, refused: true)
        }

        try api.call("DELETE", "/v1/domains/{host}/rules/{id}", rule, key: writer, expect: 204)
        try api.call("DELETE", "/v1/apps/{id}", "/v1/apps/\(ios)", key: writer, expect: 409)

        // Tear down
        try api.call("DELETE", "/v1/domains/{host}", "/v1/domains/links.example.com", key: writer, expect: 204)
        try api.call("DELETE", "/v1/apps/{id}/destinations/{name}", destinations + "/widgetDetail", key: writer, expect: 204)
        try api.call("DELETE", "/v1/apps/{id}", "/v1/apps/\(ios)", key: writer, expect: 204)
        try api.call("DELETE", "/v1/apps/{id}", "/v1/apps/\(android)", key: writer, expect: 204)
        try api.call("DELETE", "/v1/teams/{teamId}", "/v1/teams/ABCDE12345", key: writer, expect: 204)

        // Single sign-on: an owner's settings, the browser's steps refused without a sign-in.
        try api.call("GET", "/v1/sso", key: owner, expect: 404)
        try api.call(
            "PUT", "/v1/sso", key: writer, json: #"{"issuer":"https://id.example.com","clientId":"linkd","clientSecret":"s"}"#, expect: 403)
        try api.call(
            "PUT", "/v1/sso", key: owner, json: #"{"issuer":"https://id.example.com","clientId":"linkd","defaultRole":"root"}"#,
            expect: 422, refused: true)
        try api.call(
            "PUT", "/v1/sso", key: owner,
            json:
                #"{"issuer":"https://id.example.com","clientId":"linkd","clientSecret":"s","allowedDomains":["example.com"],"defaultRole":"viewer","groupsClaim":"groups","groupRoles":{"ops":"admin"},"required":false}"#,
            expect: 200)
        try api.call("GET", "/v1/sso", key: owner, expect: 200)
        try api.call("GET", "/v1/sso/start", "/v1/sso/start?workspace=nobody", expect: 404)
        try api.call("GET", "/v1/sso/callback", "/v1/sso/callback?code=x&state=y", expect: 400)
        try api.call("DELETE", "/v1/sso", key: owner, expect: 204)
    }
}

/// Validates recorded bodies against the document's schemas with Python's `jsonschema` (draft 2020-12), when installed.
enum SchemaValidator {
    static let isAvailable: Bool = (try? SpecValidator.python(["-c", "import jsonschema"]).status == 0) ?? false

    static func validate(_ samples: [OpenAPIConformanceTests.Sample], against document: JSONValue) throws -> (status: Int32, text: String) {
        let input = JSONValue.object([
            "document": document,
            "samples": .array(
                samples.map { sample in
                    .object([
                        "method": .string(sample.method), "template": .string(sample.template), "target": .string(sample.target),
                        "request": sample.request.map(JSONValue.string) ?? .null, "refused": .bool(sample.refused),
                        "status": .integer(sample.status), "contentType": sample.contentType.map(JSONValue.string) ?? .null,
                        "body": .string(sample.body),
                    ])
                }),
        ])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-conformance-\(getpid()).json")
        try Data(input.serialized.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try SpecValidator.python(["-c", script, file.path])
    }

    private static let script = """
        import json, sys
        from urllib.parse import urlsplit, parse_qsl
        from jsonschema import Draft202012Validator
        data = json.load(open(sys.argv[1]))
        doc = data["document"]
        def resolve(node):
            while isinstance(node, dict) and list(node) == ["$ref"]:
                target = doc
                for part in node["$ref"][2:].split("/"):
                    target = target[part]
                node = target
            return node
        def errors(schema, value):
            return list(Draft202012Validator({"components": doc["components"], **schema}).iter_errors(value))
        def check(schema, text, label):
            for error in errors(schema, json.loads(text))[:3]:
                failures.append(f"{label}: {error.message} at /{'/'.join(map(str, error.absolute_path))}")
        def query_errors(operation, target):
            parameters = {p["name"]: p for p in map(resolve, operation.get("parameters", [])) if p["in"] == "query"}
            found = []
            for name, value in parse_qsl(urlsplit(target).query, keep_blank_values=True):
                schema = parameters.get(name, {}).get("schema")
                if schema is None:
                    found.append(f"?{name} is not documented")
                    continue
                if schema.get("type") == "integer" and value.lstrip("-").isdigit():
                    value = int(value)
                found += [f"?{name}={value!r}: {error.message}" for error in errors(schema, value)]
            return found
        failures = []
        for s in data["samples"]:
            label = f"{s['method']} {s['template']} -> {s['status']}"
            operation = doc["paths"].get(s["template"], {}).get(s["method"].lower())
            if operation is None:
                continue  # reported by the Swift side
            body_schema = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            if 200 <= s["status"] < 300:
                if s["request"] is not None:
                    check(body_schema, s["request"], label + " request")
                failures += [f"{label} request {problem}" for problem in query_errors(operation, s["target"])]
            if s["refused"]:
                shape = query_errors(operation, s["target"])
                if s["request"] is not None:
                    shape += errors(body_schema, json.loads(s["request"]))
                if not shape:
                    failures.append(f"{label}: the server refused {s['target']} {s['request'] or ''} but its schemas accept it")
            response = resolve(operation["responses"].get(str(s["status"]), operation["responses"].get("default")))
            if response is None:
                continue  # an undocumented status: reported by the Swift side
            content = response.get("content", {})
            if not s["body"]:
                if content: failures.append(f"{label}: empty body, documented {list(content)}")
                continue
            media = (s["contentType"] or "").split(";")[0].strip()
            if media not in content:
                failures.append(f"{label}: {media} not documented ({list(content)})")
            elif media.endswith("json"):
                check(content[media]["schema"], s["body"], label)
        print("\\n".join(failures))
        sys.exit(1 if failures else 0)
        """
}
