import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// `GET /v1/domains/{host}/association/versions`, `…/versions/{n}` and `…/diff`, and the rule preview's moved URLs
/// (docs/HEALTH.md, "Versions and diffs").
@Suite("Association versions and diffs")
struct AssociationVersionsAPITests {
    func versions(_ fixture: Fixture) throws -> [JSONValue] {
        var items: [JSONValue] = []
        var path: String? = "/v1/domains/\(fixture.host)/association/versions?limit=200"
        while let next = path {
            let page = try Fixture.expect(200, fixture.service.request("GET", next, key: fixture.key)).json
            items += page["items"]?.arrayValue ?? []
            path = page["next"]?.stringValue
        }
        return items
    }

    func numbers(_ fixture: Fixture) throws -> [Int] {
        try versions(fixture).compactMap { $0["n"].flatMap(Self.int) }
    }

    /// The id of the newest audit entry of the workspace.
    func lastAuditID(_ fixture: Fixture) throws -> Int? {
        try Fixture.expect(200, fixture.service.request("GET", "/v1/audit?limit=1", key: fixture.key)).json["items"]?.arrayValue?.first?[
            "id"
        ].flatMap(Self.int)
    }

    static func int(_ value: JSONValue) -> Int? {
        if case .number(let text) = value { return Int(text) }
        return nil
    }

    func served(_ fixture: Fixture) throws -> (aasa: String, assetlinks: String) {
        let aasa = try Fixture.expect(
            200, fixture.service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", fixture.host)]))
        let links = try Fixture.expect(
            200, fixture.service.request("GET", "/.well-known/assetlinks.json", headers: [("Host", fixture.host)]))
        return (aasa.headers["ETag"] ?? "", links.headers["ETag"] ?? "")
    }

    /// The latest version matches what is served, names the newest audit entry, and carries both files.
    func expectLatestIsServed(_ fixture: Fixture, count: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let all = try versions(fixture)
        #expect(all.count == count, "\(all.count) versions", sourceLocation: sourceLocation)
        #expect(try numbers(fixture) == Array(1...all.count), sourceLocation: sourceLocation)
        let latest = try #require(all.last)
        let (aasa, assetlinks) = try served(fixture)
        #expect(latest["aasaEtag"] == .string(aasa), sourceLocation: sourceLocation)
        #expect(latest["assetlinksEtag"] == .string(assetlinks), sourceLocation: sourceLocation)
        #expect(latest["auditId"].flatMap(Self.int) == (try lastAuditID(fixture)), sourceLocation: sourceLocation)
        #expect(latest["cause"] == .string("write"), sourceLocation: sourceLocation)
        let n = try #require(latest["n"].flatMap(Self.int))
        let full = try Fixture.expect(
            200, fixture.service.request("GET", "/v1/domains/\(fixture.host)/association/versions/\(n)", key: fixture.key)
        ).json
        let file = try Fixture.expect(
            200, fixture.service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", fixture.host)])
        ).json
        #expect(full["aasa"] == file, sourceLocation: sourceLocation)
        #expect(full["snapshot"]?["rules"]?.arrayValue != nil, sourceLocation: sourceLocation)
    }

    @Test("rules, settings and app changes each record a version with their audit entry; an unchanged file records none")
    func changesRecordVersions() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            // The domain's creation (no rules yet) and its rules.
            try expectLatestIsServed(fixture, count: 2)

            try Fixture.expect(
                200,
                service.request(
                    "PATCH", "/v1/domains/\(fixture.host)", key: fixture.key,
                    json: #"{"defaults":{"caseSensitive":false}}"#))
            try expectLatestIsServed(fixture, count: 3)

            try Fixture.expect(
                200, service.request("PATCH", "/v1/apps/\(fixture.iosApp)", key: fixture.key, json: #"{"bundleId":"com.example.widgets2"}"#)
            )
            try expectLatestIsServed(fixture, count: 4)

            // A setting that is not in the files changes nothing served.
            try Fixture.expect(
                200,
                service.request(
                    "PATCH", "/v1/domains/\(fixture.host)", key: fixture.key,
                    json: #"{"webFallbackUrl":"https://www.example.com/other"}"#))
            #expect(try numbers(fixture) == [1, 2, 3, 4])

            // The first link to an app claims the link space (the files change); a second link of the app does not.
            let link =
                #"{"domain":"\#(fixture.host)","app":"\#(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":SLUG}},"slug":"s-SLUG"}"#
            try fixture.createLink(link.replacingOccurrences(of: "SLUG", with: "1"))
            try expectLatestIsServed(fixture, count: 5)
            try fixture.createLink(link.replacingOccurrences(of: "SLUG", with: "2"))
            #expect(try numbers(fixture) == [1, 2, 3, 4, 5])
        }
    }

    @Test("writers on two threads, one through the domain's rules and one through an app, number without gaps")
    func concurrentWritesNumberWithoutGaps() throws {
        // Room for both writers at once (with the default two threads, one request borrows a connection at a time).
        try TestService.with(configure: {
            $0.server.threads = 4; $0.databasePoolSize = 8
        }) { service in
            let fixture = try Fixture(service)
            let before = try numbers(fixture).count
            let rounds = 20
            let failures = LockedFailures()
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                for index in 0..<rounds {
                    let response = try? service.request(
                        "POST", "/v1/domains/\(fixture.host)/rules", key: fixture.key,
                        json: #"{"apps":["\#(fixture.iosApp)"],"path":"/round\#(index)"}"#)
                    if response?.status != 201 { failures.add("rule \(index): \(response?.text ?? "no answer")") }
                }
            }
            DispatchQueue.global().async(group: group) {
                for index in 0..<rounds {
                    // Alternately two fingerprints and one: assetlinks.json changes every time.
                    let second = index % 2 == 0 ? #",{"value":"\#(String(repeating: "AB:", count: 31))AB"}"# : ""
                    let response = try? service.request(
                        "PATCH", "/v1/apps/\(fixture.androidApp)", key: fixture.key,
                        json: #"{"sha256CertFingerprints":[{"value":"\#(Fixture.fingerprint)"}\#(second)]}"#)
                    if response?.status != 200 { failures.add("app \(index): \(response?.text ?? "no answer")") }
                }
            }
            group.wait()
            #expect(failures.all.isEmpty, "\(failures.all)")
            let all = try versions(fixture)
            #expect(all.compactMap { $0["n"].flatMap(Self.int) } == Array(1...(before + 2 * rounds)))
            // Each write caused its own version, naming its own audit entry.
            let audits = all.suffix(2 * rounds).compactMap { $0["auditId"].flatMap(Self.int) }
            #expect(Set(audits).count == 2 * rounds)
            let (aasa, assetlinks) = try served(fixture)
            #expect(all.last?["aasaEtag"] == .string(aasa))
            #expect(all.last?["assetlinksEtag"] == .string(assetlinks))
        }
    }

    @Test("only the configured number of versions is kept, the current one among them")
    func retention() throws {
        try TestService.with(configure: { $0.associationVersionsKeep = 3 }) { service in
            let fixture = try Fixture(service)
            for index in 0..<4 {
                try Fixture.expect(
                    201,
                    service.request(
                        "POST", "/v1/domains/\(fixture.host)/rules", key: fixture.key,
                        json: #"{"apps":["\#(fixture.iosApp)"],"path":"/kept\#(index)"}"#))
            }
            #expect(try numbers(fixture) == [4, 5, 6])
            #expect(try service.request("GET", "/v1/domains/\(fixture.host)/association/versions/3", key: fixture.key).status == 404)
            try Fixture.expect(200, service.request("GET", "/v1/domains/\(fixture.host)/association/versions/6", key: fixture.key))
        }
    }

    @Test("a version found changed at load is recorded without an audit entry")
    func foundAtLoad() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            // A change the writing node did not record (as if it had stopped between COMMIT and recording).
            try service.application.pool.withConnection { connection in
                try connection.execute("DELETE FROM association_versions WHERE n = 2")
            }
            let reloader = CatalogReloader(
                catalog: service.application.catalog, pool: service.application.pool, logger: .quiet,
                versions: AssociationVersionRecorder(keep: 100))
            try reloader.reloadAll()
            reloader.drain()
            let all = try versions(fixture)
            #expect(all.compactMap { $0["n"].flatMap(Self.int) } == [1, 2])
            #expect(all.last?["cause"] == .string("found"))
            #expect(all.last?["auditId"] == .null)
            // Loaded again, nothing differs: nothing more is recorded.
            try reloader.reloadAll()
            reloader.drain()
            #expect(try numbers(fixture) == [1, 2])
        }
    }

    @Test("versions found at start are recorded once the server is ready, and never hold it back")
    func foundAtStartAfterReady() throws {
        try TestService.with { first in
            let fixture = try Fixture(first)
            try first.application.pool.withConnection { connection in
                try connection.execute("DELETE FROM association_versions WHERE n = 2")
            }
            // A second node starts while the domain's version lock is held: the version it finds waits for the lock.
            let second = try first.application.pool.withTransaction { holder in
                try AssociationVersionStore.lock(hostnames: [fixture.host], on: holder)
                let second = try TestService(parameters: first.database!.parameters)
                #expect(try second.request("GET", "/readyz").status == 200)
                #expect(try numbers(fixture) == [1])
                return second
            }
            defer { second.close() }
            try waitUntil("the version found at start is recorded") { try numbers(fixture) == [1, 2] }
            #expect(try versions(fixture).last?["cause"] == .string("found"))
        }
    }

    @Test("bad numbers are 400, missing versions and other workspaces' domains 404")
    func badInput() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let base = "/v1/domains/\(fixture.host)/association"
            for path in [
                "\(base)/diff", "\(base)/diff?from=1", "\(base)/diff?from=x&to=2", "\(base)/diff?from=0&to=1",
                "\(base)/diff?from=1&to=99999999999",
            ] {
                #expect(try service.request("GET", path, key: fixture.key).status == 400, "\(path)")
            }
            for path in ["\(base)/diff?from=1&to=9", "\(base)/versions/9", "\(base)/versions/0", "\(base)/versions/x"] {
                #expect(try service.request("GET", path, key: fixture.key).status == 404, "\(path)")
            }
            let other = try service.key(workspace: "other")
            #expect(try service.request("GET", "\(base)/versions", key: other).status == 404)
            #expect(try service.request("GET", "\(base)/diff?from=1&to=2", key: other).status == 404)
        }
    }

    /// `/v1/resolve`'s decision for `url` on `platform`: outcome, app id, destination.
    func resolve(_ fixture: Fixture, _ url: String, _ platform: String) throws -> Decision {
        let encoded = url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let answer = try Fixture.expect(
            200, fixture.service.request("GET", "/v1/resolve?url=\(encoded)&platform=\(platform)", key: fixture.key)
        ).json
        return Decision(outcome: answer["outcome"]?.stringValue, app: answer["app"]?["id"]?.stringValue, destination: answer["destination"])
    }

    struct Decision: Hashable {
        let outcome: String?
        let app: String?
        let destination: JSONValue?

        init(outcome: String?, app: String?, destination: JSONValue?) {
            (self.outcome, self.app, self.destination) = (outcome, app, destination)
        }

        init(_ json: JSONValue?) {
            self.init(outcome: json?["outcome"]?.stringValue, app: json?["app"]?["id"]?.stringValue, destination: json?["destination"])
        }
    }

    /// The rules before and after (`$IOS`, `$ANDROID`): the exclusion goes, `/widget/{id}` becomes Android's alone and
    /// loses its query, `/w/{id}/{tab}` moves to `/v/{id}/{tab}`, a new rule claims `/new/*`.
    static let rulesBefore = """
        [{"apps":["$IOS","$ANDROID"],"path":"/private/*","exclude":true},
         {"apps":["$IOS","$ANDROID"],"path":"/widget/{id}","query":{"tab":"*"},"destination":{"type":"widgetDetail"}},
         {"apps":["$IOS"],"path":"/w/{id}/{tab}","destination":{"type":"widgetDetail"}},
         {"apps":["$IOS","$ANDROID"],"path":"/same/{id}","destination":{"type":"widgetDetail"}}]
        """
    static let rulesAfter = """
        [{"apps":["$ANDROID"],"path":"/widget/{id}","destination":{"type":"widgetDetail"}},
         {"apps":["$IOS"],"path":"/v/{id}/{tab}","destination":{"type":"widgetDetail"}},
         {"apps":["$IOS","$ANDROID"],"path":"/same/{id}","destination":{"type":"widgetDetail"}},
         {"apps":["$IOS","$ANDROID"],"path":"/new/*"}]
        """

    func body(_ fixture: Fixture, _ rules: String) -> String {
        #"{"rules":"#
            + rules.replacingOccurrences(of: "$IOS", with: fixture.iosApp).replacingOccurrences(of: "$ANDROID", with: fixture.androidApp)
            + "}"
    }

    func moved(_ answer: JSONValue) -> [String: (ios: (Decision, Decision), android: (Decision, Decision))] {
        var moved: [String: (ios: (Decision, Decision), android: (Decision, Decision))] = [:]
        for item in answer["moved"]?.arrayValue ?? [] {
            guard let url = item["url"]?.stringValue else { continue }
            moved[url] = (
                (Decision(item["ios"]?["from"]), Decision(item["ios"]?["to"])),
                (Decision(item["android"]?["from"]), Decision(item["android"]?["to"]))
            )
        }
        return moved
    }

    @Test("a diff of two rule sets lists exactly the URLs whose decision resolve changes, and the preview listed them before saving")
    func diffListsExactlyWhatResolveMoves() throws {
        try TestService.with { service in
            let fixture = try Fixture(service, rules: Self.rulesBefore)
            let from = try #require(try numbers(fixture).last)
            let before = try #require(service.application.catalog.entry(exactly: fixture.host))

            // The preview of the unsaved list, then the diff once it is saved: the same URLs, decided alike.
            let preview = try Fixture.expect(
                200,
                service.request(
                    "POST", "/v1/domains/\(fixture.host)/preview", key: fixture.key,
                    json: body(fixture, Self.rulesAfter))
            ).json
            try Fixture.expect(
                200, service.request("PUT", "/v1/domains/\(fixture.host)/rules", key: fixture.key, json: body(fixture, Self.rulesAfter)))
            let to = try #require(try numbers(fixture).last)
            #expect(to == from + 1)
            let diff = try Fixture.expect(
                200,
                service.request(
                    "GET", "/v1/domains/\(fixture.host)/association/diff?from=\(from)&to=\(to)",
                    key: fixture.key)
            ).json
            let previewed = moved(preview)
            let listed = moved(diff)
            #expect(!listed.isEmpty)
            #expect(Set(previewed.keys) == Set(listed.keys))
            for (url, decisions) in listed {
                #expect(previewed[url].map { $0.ios == decisions.ios && $0.android == decisions.android } == true, "\(url)")
            }
            #expect(diff["warnings"] == .array([]))
            #expect(diff["from"]?["recompiled"]?["aasa"] == .bool(true))
            #expect(diff["to"]?["recompiled"]?["aasa"] == .bool(true))
            #expect(diff["corpus"]?["cut"] == .bool(false))
            #expect(diff["aasa"]?["operations"]?.arrayValue?.isEmpty == false)

            // The corpus: every rule's example URLs under either list (no hits, no links yet).
            let after = try #require(service.application.catalog.entry(exactly: fixture.host))
            var corpus: [String] = []
            for entry in [before, after] {
                for path in RouterFixtures.examplePaths(entry.compiled) {
                    let url = try AASAURL("https://" + fixture.host + path).text
                    if !corpus.contains(url) { corpus.append(url) }
                }
            }
            #expect(diff["corpus"]?["size"].flatMap(Self.int) == corpus.count)
            #expect(Set(listed.keys).isSubset(of: Set(corpus)))

            // Resolve every corpus URL under the new list, then under the old one again (its files come back as they were).
            var decided: [String: (ios: Decision, android: Decision)] = [:]
            for url in corpus { decided[url] = (try resolve(fixture, url, "ios"), try resolve(fixture, url, "android")) }
            try Fixture.expect(
                200, service.request("PUT", "/v1/domains/\(fixture.host)/rules", key: fixture.key, json: body(fixture, Self.rulesBefore)))
            #expect(try versions(fixture).last?["aasaEtag"] == versions(fixture).first { $0["n"].flatMap(Self.int) == from }?["aasaEtag"])
            var changed: Set<String> = []
            for url in corpus {
                let old = (ios: try resolve(fixture, url, "ios"), android: try resolve(fixture, url, "android"))
                let new = decided[url]!
                if old.ios != new.ios || old.android != new.android { changed.insert(url) }
                if let listed = listed[url] {
                    #expect(listed.ios.0 == old.ios && listed.ios.1 == new.ios, "\(url) on iOS")
                    #expect(listed.android.0 == old.android && listed.android.1 == new.android, "\(url) on Android")
                }
            }
            #expect(Set(listed.keys) == changed, "listed: \(listed.keys.sorted()), resolve: \(changed.sorted())")
            // Something of each kind moved: an exclusion lifted, an app lost, a path given up and one claimed.
            #expect(changed.contains { $0.contains("/private/") })
            #expect(changed.contains { $0.contains("/widget/") })
            #expect(changed.contains { $0.contains("/w/") })
            #expect(changed.contains { $0.contains("/new/") })
            #expect(!changed.contains { $0.contains("/same/") })
        }
    }
}

/// Failures collected from several threads.
final class LockedFailures: @unchecked Sendable {
    private let lock = NSLock()
    private var failures: [String] = []

    func add(_ failure: String) { lock.withLock { failures.append(failure) } }
    var all: [String] { lock.withLock { failures } }
}
