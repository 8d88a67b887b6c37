import Foundation
import LinkKit
@testable import LinkService
import Outbound
import Synchronization
import Testing
import TestSupport

/// The association health checks against real servers (docs/HEALTH.md, "Checks"): an HTTPS front on port 443 of a
/// loopback address for the link domain (reached through `--check-resolve`, its certificate from a throwaway CA
/// given as `--check-ca-file`), and one HTTP server standing in for Apple's CDN and Google's API.
@Suite("Association health checks", .serialized)
struct HealthChecksTests {
    /// A service whose checks reach the stand-ins, with the fixture's workspace (iOS and Android apps, a domain, rules).
    final class Setup: @unchecked Sendable {
        let certificates: TestCertificates
        let origin: HealthServer
        let remote: HealthServer
        let service: TestService
        let fixture: Fixture

        static let host = "links.example.com"
        static let google = "/v1/statements:list"
        static let apple = "/a/v1/links.example.com"

        init(timeout: Int = 3, interval: Int = 0, threads: Int? = nil, webhooks: Bool = false) throws {
            certificates = try TestCertificates(names: [Self.host, "other.example.com"])
            origin = try HealthServer(certificates: certificates)
            remote = try HealthServer()
            let (origin, remote, certificates) = (origin, remote, certificates)
            service = try TestService { configuration in
                configuration.outbound.appleCDNBase = OutboundBase("http://127.0.0.1:\(remote.port)/a/v1/")!
                configuration.outbound.googleDALBase = OutboundBase("http://127.0.0.1:\(remote.port)\(Self.google)")!
                configuration.outbound.resolve = [
                    ResolveOverride("\(Self.host):443:\(origin.address)")!,
                    ResolveOverride("other.example.com:443:\(origin.address)")!,
                ]
                configuration.outbound.caFile = certificates.caCertificate
                configuration.outbound.timeout = .seconds(timeout)
                configuration.checkInterval = interval
                if let threads { configuration.server.threads = threads }
                if webhooks { WebhookTesting.configure(&configuration) }
            }
            fixture = try Fixture(service)
        }

        deinit {
            service.close()
            certificates.remove()
        }

        /// The bytes linkd serves now.
        func served() throws -> (aasa: [UInt8], assetlinks: [UInt8]) {
            let aasa = try Fixture.expect(
                200, service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", Self.host)]))
            let links = try Fixture.expect(200, service.request("GET", "/.well-known/assetlinks.json", headers: [("Host", Self.host)]))
            return (aasa.body, links.body)
        }

        /// The origin front, Apple's CDN and Google all answering what linkd serves now.
        func serveCurrentEverywhere() throws {
            let (aasa, assetlinks) = try served()
            try origin.route("/.well-known/apple-app-site-association", bytes: aasa)
            try origin.route("/.well-known/assetlinks.json", bytes: assetlinks)
            try remote.route(Self.apple, bytes: aasa)
            try googleLists(fingerprints: [Fixture.fingerprint])
        }

        /// Google's answer: the fixture's package with `fingerprints`, each statement with `rules` when given.
        func googleLists(fingerprints: [String], rules: JSONValue? = nil) throws {
            let statements: [JSONValue] = fingerprints.map { fingerprint in
                var members: [JSONMember] = [
                    JSONMember(key: "source", value: .object(["web": .object(["site": .string("https://\(Self.host).")])])),
                    JSONMember(key: "relation", value: .string("delegate_permission/common.handle_all_urls")),
                    JSONMember(
                        key: "target",
                        value: .object([
                            "androidApp": .object([
                                "packageName": .string("com.example.widgets"),
                                "certificate": .object(["sha256Fingerprint": .string(fingerprint)]),
                            ])
                        ])),
                ]
                if let rules {
                    members.append(
                        JSONMember(
                            key: "relationExtensions",
                            value: .object([
                                "delegate_permission/common.handle_all_urls": .object(["dynamic_app_link_components": rules])
                            ])))
                }
                return .object(members)
            }
            let body = JSONValue.object([
                "statements": .array(statements), "maxAge": .string("599.9s"),
                "debugString": .string("********************* Errors *********************\nNone!"),
            ])
            try remote.route(Self.google, body: body.serialized)
        }

        /// Runs the checks on demand and answers the domain's health.
        @discardableResult
        func check() throws -> JSONValue {
            try Fixture.expect(200, service.request("POST", "/v1/domains/\(Self.host)/checks", key: fixture.key)).json
        }

        /// The stored result of `check` (and `app`).
        func result(_ health: JSONValue, _ check: String, app: String? = nil) throws -> JSONValue {
            try #require(
                health["checks"]?.arrayValue?.first { $0["check"] == .string(check) && (app == nil || $0["app"] == .string(app!)) },
                "no \(check) result in \(health.serialized)")
        }

        /// The version numbers and their creation times.
        func versions() throws -> [(n: Int, createdAt: String)] {
            let page = try Fixture.expect(
                200, service.request("GET", "/v1/domains/\(Self.host)/association/versions?limit=200", key: fixture.key)
            ).json
            return (page["items"]?.arrayValue ?? []).compactMap { item in
                guard case .number(let n)? = item["n"], let number = Int(n), let created = item["createdAt"]?.stringValue else {
                    return nil
                }
                return (number, created)
            }
        }
    }

    static func int(_ value: JSONValue?) -> Int? {
        if case .number(let text)? = value { return Int(text) }
        return nil
    }

    @Test("A check whose states change tells the workspace's subscribers once; one that changes nothing tells nothing")
    func stateChangesAreTold() throws {
        let setup = try Setup(webhooks: true)
        let receiver = try WebhookReceiver()
        try WebhookTesting.subscribe(setup.service, key: setup.fixture.key, receiver, events: ["domain.health.changed"])
        try setup.serveCurrentEverywhere()
        try setup.check()
        let told = receiver.deliveries(count: 1)
        let data = try #require(told.first?.data)
        #expect(told.first?.type == "domain.health.changed" && told.first?.verified == true)
        #expect(data["domain"]?.stringValue == Setup.host)
        let changes = data["changes"]?.arrayValue ?? []
        #expect(Set(changes.compactMap { $0["check"]?.stringValue }) == ["origin", "apple_cdn", "google"], "\(changes)")
        #expect(changes.allSatisfy { $0["from"] == .null && $0["to"]?.stringValue == "current" })
        try setup.check()
        try setup.remote.route(Setup.apple, status: 404, body: "")
        try setup.check()
        // A subscription's events go out in order: once the change arrives, an event of the unchanged check would have.
        let missing = JSONValue.array([.object(["check": .string("apple_cdn"), "from": .string("current"), "to": .string("missing")])])
        try waitUntil("the apple_cdn change told") { receiver.deliveries.contains { $0.data?["changes"] == missing } }
        let both = receiver.deliveries
        #expect(both.count == 2, "the unchanged check told nothing")
        #expect(both.last?.data?["changes"] == missing)
    }

    @Test("Apple's CDN: an older version is stale since the next one, with the URLs iOS decides otherwise; then current; a 404 missing")
    func appleCDN() throws {
        let setup = try Setup()
        let fixture = setup.fixture
        try setup.serveCurrentEverywhere()
        let old = try setup.served().aasa
        // A new rule for iOS: the promo URLs open the app under the new version and the browser under the old one.
        try Fixture.expect(
            201,
            setup.service.request(
                "POST", "/v1/domains/\(Setup.host)/rules", key: fixture.key,
                json: """
                    {"apps":["\(fixture.iosApp)"],"path":"/promo/{id}","destination":{"type":"widgetDetail"}}
                    """))
        try fixture.waitForCatalog { $0.catalog.entry(exactly: Setup.host)?.compiled.rules.count == 4 }
        try setup.serveCurrentEverywhere()
        try setup.remote.route(Setup.apple, bytes: old)
        let versions = try setup.versions()
        let latest = try #require(versions.last)

        var health = try setup.check()
        var apple = try setup.result(health, "apple_cdn")
        #expect(apple["state"] == .string("stale"))
        #expect(apple["healthy"] == .bool(false))
        #expect(Self.int(apple["detail"]?["version"]) == latest.n - 1)
        #expect(Self.int(apple["detail"]?["replacedBy"]) == latest.n)
        #expect(apple["detail"]?["staleSince"] == .string(latest.createdAt))
        let moved = apple["detail"]?["moved"]?.arrayValue ?? []
        #expect(!moved.isEmpty)
        #expect(Self.int(apple["detail"]?["movedCount"]) == moved.count)
        for url in moved {
            #expect(url["url"]?.stringValue?.hasPrefix("https://\(Setup.host)/promo/") == true, "\(url.serialized)")
            #expect(url["ios"]?["from"]?["outcome"] == .string("no_match"))
            #expect(url["ios"]?["changed"] == .bool(true))
        }
        #expect(moved.contains { $0["ios"]?["to"]?["outcome"] == .string("open_app") })
        #expect(apple["detail"]?["recompiled"] == .bool(true))
        // Resolve agrees: a moved URL opens the app now.
        let first = try #require(moved.first(where: { $0["ios"]?["to"]?["outcome"] == .string("open_app") })?["url"]?.stringValue)
        let resolved = try Fixture.expect(
            200,
            setup.service.request(
                "GET", "/v1/resolve?platform=ios&url=\(first.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
                key: fixture.key)
        ).json
        #expect(resolved["outcome"] == .string("open_app"))
        #expect(try setup.result(health, "origin")["state"] == .string("current"))
        #expect(health["healthy"] == .bool(false))
        let staleSince = try #require(apple["since"]?.stringValue)

        // Still stale: the state keeps its since.
        health = try setup.check()
        apple = try setup.result(health, "apple_cdn")
        #expect(apple["since"] == .string(staleSince))
        #expect(health["changes"]?.arrayValue?.isEmpty == true)

        // The CDN catches up.
        try setup.remote.route(Setup.apple, bytes: try setup.served().aasa)
        health = try setup.check()
        apple = try setup.result(health, "apple_cdn")
        #expect(apple["state"] == .string("current"))
        #expect(Self.int(apple["detail"]?["version"]) == latest.n)
        #expect(apple["since"] != .string(staleSince))
        #expect(
            health["changes"]?.arrayValue == [.object(["check": .string("apple_cdn"), "from": .string("stale"), "to": .string("current")])])
        #expect(health["healthy"] == .bool(true))

        // The CDN has no copy.
        try setup.remote.route(Setup.apple, status: 404, body: "Not Found", contentType: "text/plain")
        health = try setup.check()
        #expect(try setup.result(health, "apple_cdn")["state"] == .string("missing"))
        #expect(health["healthy"] == .bool(false))

        // GET answers what the last run saved; /metrics counts the domain in its states.
        let read = try Fixture.expect(200, setup.service.request("GET", "/v1/domains/\(Setup.host)/health", key: fixture.key)).json
        #expect(read["checks"] == health["checks"])
        let metrics = try setup.service.request("GET", "/metrics").text
        #expect(metrics.contains(#"linkd_association_check_domains{check="apple_cdn",state="missing"} 1"#), "\(metrics)")
        #expect(metrics.contains(#"linkd_association_check_domains{check="origin",state="current"} 1"#))
    }

    @Test("Google: a missing fingerprint is missing, every one current; dynamic rules Google lacks are stale, then current")
    func google() throws {
        let setup = try Setup()
        let fixture = setup.fixture
        let second = String(repeating: "AB:", count: 31) + "AB"
        try Fixture.expect(
            200,
            setup.service.request(
                "PATCH", "/v1/apps/\(fixture.androidApp)", key: fixture.key,
                json: #"{"sha256CertFingerprints":[{"value":"\#(Fixture.fingerprint)"},{"value":"\#(second)"}]}"#))
        try fixture.waitForCatalog { $0.catalog.entry(exactly: Setup.host)?.compiled.apps.contains { $0.fingerprints.count == 2 } == true }
        try setup.serveCurrentEverywhere()

        var health = try setup.check()
        var google = try setup.result(health, "google", app: fixture.androidApp)
        #expect(google["state"] == .string("missing"))
        #expect(google["detail"]?["listed"] == .bool(true))
        #expect(google["detail"]?["missingFingerprints"] == .array([.string(second)]))

        try setup.googleLists(fingerprints: [Fixture.fingerprint, second.lowercased()])
        health = try setup.check()
        google = try setup.result(health, "google", app: fixture.androidApp)
        #expect(google["state"] == .string("current"), "\(google.serialized)")
        #expect(google["detail"]?["rulesMatch"] == .bool(true))
        let before = try #require(setup.versions().last?.n)

        // Dynamic rules on: linkd serves them, Google still has the file without them (the version before).
        try Fixture.expect(
            200, setup.service.request("PATCH", "/v1/domains/\(Setup.host)", key: fixture.key, json: #"{"androidDynamicRules":true}"#))
        try fixture.waitForCatalog {
            String(decoding: $0.catalog.entry(exactly: Setup.host)?.assetLinks.bytes ?? [], as: UTF8.self).contains(
                "dynamic_app_link_components")
        }
        try setup.googleLists(fingerprints: [Fixture.fingerprint, second])
        health = try setup.check()
        google = try setup.result(health, "google", app: fixture.androidApp)
        #expect(google["state"] == .string("stale"), "\(google.serialized)")
        #expect(Self.int(google["detail"]?["version"]) == before)
        #expect(google["detail"]?["rulesMatch"] == .bool(false))
        let served = try #require(
            try JSONValue.parse(bytes: setup.served().assetlinks).arrayValue?.first?["relation_extensions"]?[
                "delegate_permission/common.handle_all_urls"]?["dynamic_app_link_components"])
        #expect(google["detail"]?["servedDynamicRules"] == HealthChecker.canonical(served))

        // Google returns them, with its own member order: current.
        let reordered = JSONValue.array((served.arrayValue ?? []).map { .object(($0.objectMembers ?? []).reversed()) })
        try setup.googleLists(fingerprints: [Fixture.fingerprint, second], rules: reordered)
        health = try setup.check()
        google = try setup.result(health, "google", app: fixture.androidApp)
        #expect(google["state"] == .string("current"), "\(google.serialized)")

        // Rules linkd never served: unknown.
        try setup.googleLists(fingerprints: [Fixture.fingerprint, second], rules: .array([.object(["/": .string("/elsewhere/*")])]))
        #expect(try setup.result(setup.check(), "google", app: fixture.androidApp)["state"] == .string("unknown"))

        // The package not listed at all.
        try setup.googleLists(fingerprints: [])
        google = try setup.result(setup.check(), "google", app: fixture.androidApp)
        #expect(google["state"] == .string("missing"))
        #expect(google["detail"]?["listed"] == .bool(false))
    }

    @Test("A misconfigured front: a redirect, text/html, a 200 KB file; an old file is stale, another unknown")
    func misconfiguredOrigin() throws {
        let setup = try Setup()
        try setup.serveCurrentEverywhere()
        let aasaPath = "/.well-known/apple-app-site-association"
        func origin() throws -> JSONValue { try setup.result(setup.check(), "origin") }

        try setup.origin.route(
            aasaPath, status: 301, body: "moved", contentType: "text/html",
            headers: [("Location", "https://www.example.com/.well-known/apple-app-site-association")])
        var result = try origin()
        #expect(result["state"] == .string("misconfigured"))
        #expect(result["detail"]?["aasa"]?["problems"] == .array([.string("redirect")]))
        #expect(result["detail"]?["aasa"]?["location"] == .string("https://www.example.com/.well-known/apple-app-site-association"))
        #expect(result["detail"]?["assetlinks"]?["problems"] == .array([]))
        // Not followed: only the redirect itself reached a server.
        #expect(setup.origin.requests.allSatisfy { $0.host == Setup.host })

        let (aasa, _) = try setup.served()
        try setup.origin.route(aasaPath, bytes: aasa, contentType: "text/html; charset=utf-8")
        result = try origin()
        #expect(result["state"] == .string("misconfigured"))
        #expect(result["detail"]?["aasa"]?["problems"] == .array([.string("contentType")]))
        #expect(result["detail"]?["aasa"]?["match"] == .string("current"))

        let large = #"{"applinks":{"details":[]},"padding":""# + String(repeating: "x", count: 200 * 1024) + #""}"#
        try setup.origin.route(aasaPath, body: large)
        result = try origin()
        #expect(result["state"] == .string("misconfigured"))
        #expect(result["detail"]?["aasa"]?["problems"] == .array([.string("tooLarge")]))
        #expect(Self.int(result["detail"]?["aasa"]?["bytes"]) == large.utf8.count)

        // (Not the empty file the domain served before its rules: that is version 1, and stale.)
        try setup.origin.route(aasaPath, body: #"{"applinks":{"details":[]},"webcredentials":{"apps":[]}}"#)
        result = try origin()
        #expect(result["state"] == .string("unknown"))

        try setup.origin.route(aasaPath, body: "<html>", contentType: "application/json")
        #expect(try origin()["detail"]?["aasa"]?["problems"] == .array([.string("notJSON")]))

        // A file linkd served before.
        let old = aasa
        try Fixture.expect(
            201,
            setup.service.request(
                "POST", "/v1/domains/\(Setup.host)/rules", key: setup.fixture.key,
                json: #"{"apps":["\#(setup.fixture.iosApp)"],"path":"/more/*"}"#))
        try setup.fixture.waitForCatalog { $0.catalog.entry(exactly: Setup.host)?.aasa.bytes != old }
        try setup.origin.route(aasaPath, bytes: old)
        try setup.origin.route("/.well-known/assetlinks.json", bytes: try setup.served().assetlinks)
        result = try origin()
        #expect(result["state"] == .string("stale"), "\(result.serialized)")
        #expect(Self.int(result["detail"]?["aasa"]?["version"]) == (try setup.versions().last?.n).map { $0 - 1 })
    }

    @Test("A stalled front fails as a timeout and is not healthy; an unreachable CDN says why")
    func stalledServer() throws {
        let setup = try Setup(timeout: 1, threads: 2)
        try setup.serveCurrentEverywhere()
        let (aasa, _) = try setup.served()
        try setup.origin.route("/.well-known/apple-app-site-association", bytes: aasa)
        try setup.origin.route("/.well-known/assetlinks.json", body: "[]", delay: 4)
        let started = Date()
        let health = try setup.check()
        #expect(Date().timeIntervalSince(started) < 3.5, "the requests run together, each within --check-timeout")
        let origin = try setup.result(health, "origin")
        #expect(origin["state"] == .string("failing"))
        #expect(origin["healthy"] == .bool(false))
        #expect(origin["detail"]?["reason"]?["kind"] == .string("timeout"))
        #expect(origin["detail"]?["assetlinks"]?["reason"]?["kind"] == .string("timeout"))
        #expect(health["healthy"] == .bool(false))
        // Checks on demand hold a worker each: with 2 threads, one at a time; another meanwhile is refused.
        let statuses = Locked<[Int]>([])
        let before = setup.origin.requests.count
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            // The second asks once the first's check is under way (the origin has its requests, one of which stalls).
            if index == 1 { _ = eventually { setup.origin.requests.count > before } }
            let status = (try? setup.service.request("POST", "/v1/domains/\(Setup.host)/checks", key: setup.fixture.key).status) ?? 0
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0.sorted() } == [200, 503])
        // The CDN and Google stand-in gone: connect failures, never healthy.
        setup.remote.process.signal(SIGKILL)
        _ = try setup.remote.process.wait(timeout: 10)
        let after = try setup.check()

        let apple = try setup.result(after, "apple_cdn")
        #expect(apple["state"] == .string("failing"))
        #expect(apple["detail"]?["reason"]?["kind"] == .string("connect"))
        #expect(try setup.result(after, "google", app: setup.fixture.androidApp)["state"] == .string("failing"))
    }

    @Test("The checks reach only the configured bases and the domain's own /.well-known/ files")
    func onlyAllowedTargets() throws {
        let setup = try Setup()
        try setup.serveCurrentEverywhere()
        // Another workspace's domain on the same front is never asked.
        let other = try setup.service.key(workspace: "other")
        try Fixture.expect(201, setup.service.request("POST", "/v1/domains", key: other, json: #"{"hostname":"other.example.com"}"#))
        try setup.check()
        try setup.check()
        let origin = setup.origin.requests(count: 4)
        #expect(origin.count == 4)
        #expect(origin.allSatisfy { $0.host == Setup.host && $0.path.hasPrefix("/.well-known/") }, "\(origin)")
        let remote = setup.remote.requests(count: 4)
        #expect(remote.count == 4)
        #expect(
            remote.allSatisfy { $0.path == Setup.apple || $0.path.hasPrefix(Setup.google + "?source.web.site=https://\(Setup.host)&") },
            "\(remote)")
        // Another workspace's domain is a 404, and a GET needs no write scope while POST does.
        #expect(try setup.service.request("POST", "/v1/domains/other.example.com/checks", key: setup.fixture.key).status == 404)
        #expect(try setup.service.request("GET", "/v1/domains/nowhere.example.com/health", key: setup.fixture.key).status == 404)
        let reader = try setup.service.key(workspace: "acme", scope: .read)
        #expect(try setup.service.request("GET", "/v1/domains/\(Setup.host)/health", key: reader).status == 200)
        #expect(try setup.service.request("POST", "/v1/domains/\(Setup.host)/checks", key: reader).status == 403)
    }

    @Test("In the background each domain is checked at its slot, and /metrics counts it")
    func background() throws {
        let setup = try Setup(interval: 2)
        try setup.serveCurrentEverywhere()
        func health() throws -> JSONValue {
            try Fixture.expect(200, setup.service.request("GET", "/v1/domains/\(Setup.host)/health", key: setup.fixture.key)).json
        }
        var first = JSONValue.null
        try waitUntil("the three checks run: \(first.serialized)") {
            first = try health()
            return first["checks"]?.arrayValue?.count == 3
        }
        #expect(first["healthy"] == .bool(true), "\(first.serialized)")
        #expect(first["nextCheckAt"]?.stringValue != nil)
        let checkedAt = try setup.result(first, "origin")["checkedAt"]
        // Checked again one interval on (2 s; far less than the bound, which only allows for a busy machine).
        let waiting = Date()
        #expect(try eventually { try setup.result(try health(), "origin")["checkedAt"] != checkedAt })
        #expect(Date().timeIntervalSince(waiting) < 20)
        let metrics = try setup.service.request("GET", "/metrics").text
        #expect(metrics.contains(#"linkd_association_check_domains{check="origin",state="current"} 1"#), "\(metrics)")
        #expect(metrics.contains(#"linkd_association_checks_total{outcome="checked"}"#))
    }
}

/// A value shared by the threads of a test.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}
