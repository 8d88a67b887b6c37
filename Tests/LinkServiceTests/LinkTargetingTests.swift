import Foundation
import HTTPServer
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Targeting and experiments (issue 51, docs/LINKS.md "Targeting and experiments"): the first target whose conditions
/// hold decides a click and a resolve, variants stick to their visitors, the hit records both, and every door refuses
/// targets that can never decide, at their pointer.
@Suite("Link targeting")
struct LinkTargetingTests {
    static let page = "https://www.example.com/default"
    static let androidPage = "https://www.example.com/android"
    static let germanPage = "https://www.example.com/de"
    static let targets = """
        [{"name":"android","conditions":{"platforms":[{"platform":"android"}]},"url":"\(androidPage)"},
         {"name":"german","conditions":{"languages":["de"]},"url":"\(germanPage)",
          "variants":[{"name":"a","weight":50,"url":"https://www.example.com/de-a"},{"name":"b","weight":50,"url":"https://www.example.com/de-b"}]}]
        """

    private static func click(_ fixture: Fixture, _ path: String, agent: String, headers: [(String, String)] = []) throws -> TestResponse {
        try fixture.service.request("GET", path, headers: [("Host", fixture.host), ("User-Agent", agent)] + headers)
    }

    private static func create(_ fixture: Fixture, _ members: String) throws -> TestResponse {
        try fixture.postLink(
            """
            {"domain":"\(fixture.host)","url":"\(page)"\(members)}
            """)
    }

    @Test func theFirstTargetWhoseConditionsHoldDecidesAClick() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let link = try Fixture.expect(201, Self.create(fixture, #","slug":"t","targets":"# + Self.targets)).json
            #expect(link["targets"]?.arrayValue?.count == 2, "\(link)")
            #expect(
                try Self.click(fixture, "/t", agent: ClickTests.pixel, headers: [("Accept-Language", "de")]).headers["Location"]
                    == Self.androidPage,
                "the first target decides, though the second holds too")
            #expect(
                try Self.click(fixture, "/t", agent: ClickTests.iPhone, headers: [("Accept-Language", "en")]).headers["Location"]
                    == Self.page)
            #expect(try Self.click(fixture, "/t", agent: ClickTests.iPhone).headers["Location"] == Self.page)
            // Quality values: the first acceptable language is German.
            let german = try Self.click(
                fixture, "/t", agent: ClickTests.iPhone, headers: [("Accept-Language", "fr;q=0.4, de-AT;q=0.9, en;q=0.1")])
            let location = try #require(german.headers["Location"])
            #expect(location.hasPrefix("https://www.example.com/de-"), "\(location)")
            let cookie = try #require(german.headers["Set-Cookie"])
            #expect(
                cookie.hasPrefix("linkd_v=") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax")
                    && cookie.contains("Max-Age="))
            // The cookie keeps the variant; it is set once.
            let key = String(cookie.split(separator: ";")[0])
            for _ in 0..<5 {
                let again = try Self.click(fixture, "/t", agent: ClickTests.iPhone, headers: [("Accept-Language", "de"), ("Cookie", key)])
                #expect(again.headers["Location"] == location)
                #expect(again.headers["Set-Cookie"] == nil)
            }
            var rows: [(String?, String?)] = []
            try waitUntil("the hits written: \(rows)") {
                rows = try service.application.pool.withConnection { connection in
                    try connection.query("SELECT target, variant FROM hits WHERE source = 'click' ORDER BY id").map {
                        try $0.decode((String?, String?).self)
                    }
                }
                return rows.count >= 9
            }
            #expect(rows[0].0 == "android" && rows[0].1 == nil)
            #expect(rows[1].0 == nil && rows[2].0 == nil)
            #expect(rows[3].0 == "german" && ["a", "b"].contains(rows[3].1))
            #expect(rows[4...].allSatisfy { $0.0 == "german" && $0.1 == rows[3].1 })
        }
    }

    @Test func resolveTakesTheVisitorsContextAndSaysTheLinkIsTargeted() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            try Fixture.expect(201, Self.create(fixture, #","slug":"r","targets":"# + Self.targets))
            let url = "https://\(fixture.host)/r"
            let plain = try Fixture.expect(200, service.request("GET", "/v1/resolve?url=\(url)", key: fixture.key)).json
            #expect(plain["targeted"] == .bool(true) && plain["target"] == .null, "\(plain)")
            let android = try Fixture.expect(200, service.request("GET", "/v1/resolve?url=\(url)&platform=android", key: fixture.key)).json
            #expect(android["target"] == .string("android") && android["link"]?["url"] == .string(Self.androidPage), "\(android)")
            let german = try Fixture.expect(
                200, service.request("GET", "/v1/resolve?url=\(url)&language=de-CH&visitorId=v1", key: fixture.key)
            ).json
            #expect(german["target"] == .string("german"))
            let variant = try #require(german["variant"]?.stringValue)
            for _ in 0..<3 {
                let again = try Fixture.expect(
                    200, service.request("GET", "/v1/resolve?url=\(url)&language=de&visitorId=v1", key: fixture.key)
                ).json
                #expect(again["variant"]?.stringValue == variant)
            }
            // Without a visitor id there is no variant: the target's own destination.
            let anonymous = try Fixture.expect(200, service.request("GET", "/v1/resolve?url=\(url)&language=de", key: fixture.key)).json
            #expect(anonymous["variant"] == .null && anonymous["link"]?["url"] == .string(Self.germanPage), "\(anonymous)")
            // A link without targets says nothing of targeting.
            try Fixture.expect(201, Self.create(fixture, #","slug":"p""#))
            let untargeted = try Fixture.expect(200, service.request("GET", "/v1/resolve?url=https://\(fixture.host)/p", key: fixture.key))
                .json
            #expect(untargeted["targeted"] == nil)
        }
    }

    /// `POST /v1/resolve` takes the context `GET` takes (country, language, visitorId, app, the OS version) and
    /// answers each targeted URL as `GET` does; a bad context value is a 422 at its member.
    @Test func batchResolveTakesTheVisitorsContextAsGetDoes() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let targets = """
                [{"name":"new-ios","conditions":{"platforms":[{"platform":"ios","minVersion":"17.2"}]},"url":"https://www.example.com/new"},
                 {"name":"austria","conditions":{"countries":["AT"],"apps":["\(fixture.iosApp)"]},"url":"https://www.example.com/at"}]
                """
            try Fixture.expect(201, Self.create(fixture, #","slug":"v","targets":"# + targets))
            try Fixture.expect(201, Self.create(fixture, #","slug":"w","targets":"# + Self.targets))
            let urls = ["https://\(fixture.host)/v", "https://\(fixture.host)/w"]
            let contexts: [(query: String, body: String, v: String?, w: String?)] = [
                ("", "", nil, nil),
                ("&osVersion=17.4", #","osVersion":"17.4""#, "new-ios", nil),
                ("&osVersion=17", #","osVersion":"17""#, nil, nil),
                ("&country=at&app=\(fixture.iosApp)", #","country":"at","app":"\#(fixture.iosApp)""#, "austria", nil),
                ("&country=AT", #","country":"AT""#, nil, nil),
                ("&language=de-AT&visitorId=v7", #","language":"de-AT","visitorId":"v7""#, nil, "german"),
            ]
            for context in contexts {
                let batch = try Fixture.expect(
                    200,
                    service.request(
                        "POST", "/v1/resolve", key: fixture.key,
                        json: #"{"urls":["\#(urls[0])","\#(urls[1])"],"log":false\#(context.body)}"#)
                ).json
                let results = try #require(batch["results"]?.arrayValue)
                for (index, url) in urls.enumerated() {
                    let one = try Fixture.expect(
                        200, service.request("GET", "/v1/resolve?url=\(url)&log=false\(context.query)", key: fixture.key)
                    ).json
                    #expect(results[index] == one, "\(context.query): \(results[index]) vs \(one)")
                    #expect(one["target"] == (index == 0 ? context.v : context.w).map(JSONValue.string) ?? .null, "\(context.query) \(one)")
                }
                if context.w != nil { #expect(results[1]["variant"]?.stringValue != nil) }
            }
            for (member, value) in [
                ("country", "\"DEU\""), ("osVersion", "\"17.x\""), ("app", "\"nope\""), ("visitorId", "\"\""), ("language", "7"),
            ] {
                let refused = try service.request(
                    "POST", "/v1/resolve", key: fixture.key, json: #"{"urls":["\#(urls[0])"],"\#(member)":\#(value)}"#)
                let json = try refused.json
                let pointer = json["errors"]?.arrayValue?.first?["pointer"]
                #expect(refused.status == 422 && pointer == .string("/\(member)"), "\(member): \(json)")
            }
            // GET refuses what POST refuses (its schema's pattern and minimum length), naming the parameter.
            for bad in ["osVersion=17.x", "country=DEU", "country=D1", "visitorId=", "app=nope"] {
                let refused = try service.request("GET", "/v1/resolve?url=\(urls[0])&\(bad)", key: fixture.key)
                let name = String(bad.prefix { $0 != "=" })
                let detail = try refused.json["detail"]?.stringValue ?? ""
                #expect(refused.status == 400 && detail.hasPrefix(name), "\(bad): \(detail)")
            }
        }
    }

    /// `GET /v1/resolve` reads its context where it lies in the decoded query: escaped names and values, either case,
    /// an app id in capitals, a visitor id that is not ASCII (or not UTF-8: read as the text it repairs to) are read
    /// as `POST` reads the same values, to the same target and variant; a language longer in bytes than its 200
    /// characters passes, and a bad value is refused as before.
    @Test func getReadsItsEscapedContextAsPostReadsIt() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let targets = """
                [{"name":"austria","conditions":{"countries":["AT"],"apps":["\(fixture.iosApp)"],"platforms":[{"platform":"ios","minVersion":"17.2"}]},"url":"https://www.example.com/at"},
                 {"name":"german","conditions":{"languages":["de"]},"url":"https://www.example.com/de",
                  "variants":[{"name":"a","weight":50,"url":"https://www.example.com/de-a"},{"name":"b","weight":50,"url":"https://www.example.com/de-b"}]}]
                """
            try Fixture.expect(201, Self.create(fixture, #","slug":"e","targets":"# + targets))
            let url = "https://\(fixture.host)/e"
            let app = fixture.iosApp.uppercased()
            var cases: [(query: String, body: String, target: String?)] = [
                ("&%63ountry=%61t&app=\(app)&osVersion=17%2E4", #","country":"at","app":"\#(app)","osVersion":"17.4""#, "austria"),
                ("&country=AT&app=\(app)&osVersion=17.1", #","country":"AT","app":"\#(app)","osVersion":"17.1""#, nil),
                ("&country=unknown&language=fr%3Bq%3D0.5%2C+de-CH", #","country":"unknown","language":"fr;q=0.5, de-CH""#, "german"),
                ("&visitorId=v%C3%A9&language=de", #","visitorId":"vé","language":"de""#, "german"),
                ("&visitorId=%FF&language=de", #","visitorId":"\uFFFD","language":"de""#, "german"),
            ]
            cases += (1...12).map { ("&language=de&visitor%49d=v\($0)", #","language":"de","visitorId":"v\#($0)""#, "german") }
            var variants: Set<String> = []
            for context in cases {
                let one = try Fixture.expect(
                    200, service.request("GET", "/v1/resolve?url=\(url)&log=false\(context.query)", key: fixture.key)
                ).json
                let batch = try Fixture.expect(
                    200,
                    service.request("POST", "/v1/resolve", key: fixture.key, json: #"{"urls":["\#(url)"],"log":false\#(context.body)}"#)
                ).json
                #expect(batch["results"]?.arrayValue?.first == one, "\(context.query): \(one) vs \(batch)")
                #expect(one["target"] == context.target.map(JSONValue.string) ?? .null, "\(context.query): \(one)")
                if context.query.contains("isitor") { variants.insert(one["variant"]?.stringValue ?? "none") }
            }
            #expect(variants == ["a", "b"], "visitors are split: \(variants)")
            // 150 characters of two bytes each: within the schema's 200 characters.
            let long = String(repeating: "%C3%A9", count: 150)
            try Fixture.expect(200, service.request("GET", "/v1/resolve?url=\(url)&language=\(long)", key: fixture.key))
            for bad in [
                "language=" + String(repeating: "a", count: 201), "country=%44%45U", "osVersion=17%2Ex", "app=%7B\(app)%7D", "visitorId=",
            ] {
                let refused = try service.request("GET", "/v1/resolve?url=\(url)&\(bad)", key: fixture.key)
                let detail = try refused.json["detail"]?.stringValue ?? ""
                #expect(refused.status == 400 && detail.hasPrefix(String(bad.prefix { $0 != "=" })), "\(bad): \(detail)")
            }
        }
    }

    /// Targets that can never decide, each at its pointer.
    static let refusals: [(targets: String, pointer: String)] = [
        (#"[{"name":"x","conditions":{"countries":["DE","ZZ"]},"url":"https://www.example.com/x"}]"#, "/targets/0/conditions/countries/1"),
        (#"[{"name":"x","conditions":{"devices":[]},"url":"https://www.example.com/x"}]"#, "/targets/0/conditions/devices"),
        (
            #"[{"name":"x","conditions":{"window":{"from":"2030-01-02T00:00:00Z","until":"2030-01-01T00:00:00Z"}},"url":"https://www.example.com/x"}]"#,
            "/targets/0/conditions/window/until"
        ),
        (
            #"[{"name":"x","conditions":{"countries":["DE","AT"]},"url":"https://www.example.com/x"},{"name":"y","conditions":{"countries":["AT"],"devices":["mobile"]},"url":"https://www.example.com/y"}]"#,
            "/targets/1/conditions"
        ),
        (
            #"[{"name":"x","conditions":{},"url":"https://www.example.com/x"},{"name":"y","conditions":{"languages":["de"]},"url":"https://www.example.com/y"}]"#,
            "/targets/1/conditions"
        ),
        (
            #"[{"name":"x","conditions":{"countries":["DE"]},"url":"https://www.example.com/x","variants":[{"name":"a","weight":0,"url":"https://www.example.com/a"},{"name":"b","weight":5,"stopped":true,"url":"https://www.example.com/b"}]}]"#,
            "/targets/0/variants"
        ),
    ]

    @Test func everyDoorRefusesTargetsThatCanNeverDecide() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let stored = try Fixture.expect(201, Self.create(fixture, #","slug":"kept""#)).json
            let id = try #require(stored["id"]?.stringValue)
            for (targets, pointer) in Self.refusals {
                let single = try Self.create(fixture, #","targets":"# + targets)
                #expect(
                    try single.status == 422 && single.json["errors"]?.arrayValue?.contains { $0["pointer"] == .string(pointer) } == true,
                    "create \(pointer): \(single.text)")
                let patch = try service.request("PATCH", "/v1/links/\(id)", key: fixture.key, json: #"{"targets":"# + targets + "}")
                #expect(patch.status == 422 && patch.text.contains("\"\(pointer)\""), "PATCH \(pointer): \(patch.text)")
                let bulk = try Fixture.expect(
                    200,
                    service.request(
                        "POST", "/v1/links/bulk?acknowledgeMoves=true", key: fixture.key,
                        json: """
                            [{"domain":"\(fixture.host)","url":"\(Self.page)","targets":\(targets)}]
                            """)
                ).json
                #expect(bulk["created"] == .number("0") && bulk.serialized.contains("\"/0\(pointer)\""), "bulk \(pointer): \(bulk)")
                let cell = "\"" + targets.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                let csv = try HTTPTestClient.request(
                    port: service.port, method: "POST", path: "/v1/links/import?acknowledgeMoves=true&format=csv",
                    headers: [("Authorization", "Bearer \(fixture.key)"), ("Content-Type", "text/csv")],
                    body: Array("domain,url,targets\n\(fixture.host),\(Self.page),\(cell)\n".utf8), timeout: 60)
                #expect(
                    try csv.status == 200 && csv.json["created"] == .number("0") && csv.text.contains("targets"),
                    "CSV \(pointer): \(csv.text)")
            }
            // Nothing was changed or created.
            #expect(try Fixture.expect(200, service.request("GET", "/v1/links/\(id)", key: fixture.key)).json["targets"] == nil)
            #expect(try service.request("GET", "/v1/links", key: fixture.key).json["items"]?.arrayValue?.count == 1)
            // A good one through the CSV import: stored as sent.
            let cell = "\"" + Self.targets.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let imported = try HTTPTestClient.request(
                port: service.port, method: "POST", path: "/v1/links/import?acknowledgeMoves=true&format=csv",
                headers: [("Authorization", "Bearer \(fixture.key)"), ("Content-Type", "text/csv")],
                body: Array("domain,slug,url,targets\n\(fixture.host),csv,\(Self.page),\(cell)\n".utf8), timeout: 60)
            #expect(try imported.json["created"] == .number("1"), "\(imported.text)")
            #expect(try Self.click(fixture, "/csv", agent: ClickTests.pixel).headers["Location"] == Self.androidPage)
        }
    }

    @Test func aTargetOrVariantLeadingBackToTheLinkIsALoop() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let own = "https://\(fixture.host)/loop"
            let target = try Self.create(
                fixture, #","slug":"loop","targets":[{"name":"x","conditions":{"devices":["mobile"]},"url":"\#(own)"}]"#)
            #expect(target.status == 422 && target.text.contains("\"/targets/0/url\""), "\(target.text)")
            let variant = try Self.create(
                fixture,
                """
                ,"slug":"loop","variants":[{"name":"a","weight":1,"url":"\(Self.page)"},{"name":"b","weight":1,"url":"\(own)?x=1"}]
                """)
            #expect(variant.status == 422 && variant.text.contains("\"/variants/1/url\""), "\(variant.text)")
        }
    }

    @Test func theDeferredLinkCarriesTheVariantThroughTheInstall() throws {
        try TestService.with { service in
            let fixture = try LandingTests.fixture(service)
            func destination(_ id: Int) -> String {
                #""app":"\#(fixture.androidApp)","destination":{"type":"widgetDetail","params":{"id":\#(id)}}"#
            }
            try fixture.createLink(
                """
                {"domain":"\(fixture.host)","slug":"ab",\(destination(1)),
                 "variants":[{"name":"seven","weight":50,\(destination(7))},{"name":"eight","weight":50,\(destination(8))}]}
                """)
            let page = try service.request("GET", "/ab", headers: [("Host", fixture.host), ("User-Agent", LandingTests.Agent.android)])
            #expect(page.headers["Set-Cookie"]?.hasPrefix("linkd_v=") == true)
            let store = try #require(LandingTests.href(page.text, "get"))
            let referrer = try #require(URLComponents(string: store)?.queryItems?.first { $0.name == "referrer" }?.value)
            let token = String(referrer.dropFirst("linkd_token=".count))
            let claimed = try Fixture.expect(200, service.request("POST", "/v1/deferred/claim", json: #"{"token":"\#(token)"}"#)).json
            let variant = try #require(claimed["variant"]?.stringValue)
            #expect(claimed["targeted"] == .bool(true) && claimed["target"] == .null)
            #expect(claimed["destination"]?["params"]?["id"] == .number(variant == "seven" ? "7" : "8"), "\(claimed)")
            var rows: [(String, String?)] = []
            try waitUntil("the claim's hit: \(rows)") {
                rows = try service.application.pool.withConnection { connection in
                    try connection.query("SELECT source, variant FROM hits ORDER BY id").map { try $0.decode((String, String?).self) }
                }
                return rows.count >= 2
            }
            #expect(rows.map(\.1) == [variant, variant], "the click's and the claim's")
        }
    }

    @Test func variantsKeepTheirVisitorsWhenWeightsChange() throws {
        func split(_ weights: [(String, Double, Bool)]) -> [ServedTargeting.Variant] {
            let link = ServedLink(
                Link(
                    id: UUID(), domainID: UUID(), hostname: "h", slug: "s", appID: nil, destination: nil, webURL: "https://x.example",
                    fallbacks: .object([]), skipStore: false, campaign: .init(), tags: [], preview: .object([]), expiresAt: nil,
                    maxClicks: nil, name: nil, data: nil, version: 1, createdAt: Date(), updatedAt: Date(), sortMicros: 0), tapsWritten: 0)
            return weights.map {
                ServedTargeting.Variant(name: $0.0, nameHash: ServedTargeting.fnv($0.0.utf8), weight: $0.1, stopped: $0.2, link: link)
            }
        }
        let buckets = (0..<ServedTargeting.buckets)
        let even = buckets.map { ServedTargeting.variant(split([("a", 50, false), ("b", 50, false)]), bucket: $0)! }
        let shares = even.filter { $0 == 0 }.count
        #expect((4_500...5_500).contains(shares), "\(shares) of 10000 to a")
        // b's share grows: a's visitors may move to b, b's never to a.
        let grown = buckets.map { ServedTargeting.variant(split([("a", 30, false), ("b", 70, false)]), bucket: $0)! }
        #expect(zip(even, grown).allSatisfy { $0.0 == 0 || $0.1 == 1 }, "b's visitors stay")
        #expect((6_500...7_500).contains(grown.filter { $0 == 1 }.count))
        // A third variant takes its share from both, and moves no one between a and b.
        let third = buckets.map { ServedTargeting.variant(split([("a", 50, false), ("b", 50, false), ("c", 20, false)]), bucket: $0)! }
        #expect(zip(even, third).allSatisfy { $0.1 == 2 || $0.0 == $0.1 })
        // Stopped: c's visitors go back where they were, the others do not move.
        let stopped = buckets.map { ServedTargeting.variant(split([("a", 50, false), ("b", 50, false), ("c", 20, true)]), bucket: $0)! }
        #expect(stopped == even)
        // The order of the variants does not matter, only their names.
        let reordered = buckets.map { ServedTargeting.variant(split([("b", 50, false), ("a", 50, false)]), bucket: $0)! }
        #expect(zip(even, reordered).allSatisfy { $0.0 != $0.1 })
    }

    @Test func eachConditionHoldsOnlyForItsVisitors() throws {
        func conditions(_ json: String) throws -> ServedTargeting.Conditions {
            let errors = FieldErrors()
            let targets = LinkTargeting.targets(
                [(try JSONValue.parse(#"{"name":"t","conditions":\#(json),"url":"https://www.example.com/"}"#), "/targets/0")],
                errors: errors)
            #expect(errors.isEmpty, "\(errors.list)")
            return ServedTargeting.Conditions(try #require(targets.first).conditions)
        }
        let app = UUID()
        var visitor = TargetVisitor(
            country: ServedTargeting.packed("DE"), platform: .ios, osVersion: .init(17, 4, 0), device: .mobile,
            browser: "Mobile Safari", language: "de-AT", app: app, now: Date(timeIntervalSince1970: 1_900_000_000),
            referrerHost: "News.Example.com", campaign: Hit.Campaign(source: "mail", campaign: "spring"))
        let cases: [(String, (inout TargetVisitor) -> Void)] = [
            (#"{"countries":["de","AT"]}"#, { $0.country = ServedTargeting.packed("FR") }),
            (#"{"countries":["unknown"]}"#, { $0.country = ServedTargeting.packed("DE") }),
            (#"{"platforms":[{"platform":"ios","minVersion":"16","maxVersion":"17.4"}]}"#, { $0.osVersion = .init(17, 5, 0) }),
            (#"{"platforms":[{"platform":"ios"}]}"#, { $0.platform = .android }),
            (#"{"devices":["mobile","tablet"]}"#, { $0.device = .desktop }),
            (#"{"browsers":["mobile safari"]}"#, { $0.browser = "Chrome Mobile" }),
            (#"{"languages":["de"]}"#, { $0.language = "en-DE" }),
            (#"{"apps":["\#(app.canonicalText)"]}"#, { $0.app = nil }),
            (
                #"{"window":{"from":"2030-01-01T00:00:00Z","until":"2030-12-31T00:00:00Z"}}"#,
                { $0.now = Date(timeIntervalSince1970: 1_930_000_000) }
            ),
            (#"{"referrers":["news.example.com"]}"#, { $0.referrerHost = "example.com" }),
            (#"{"utm":{"source":"mail","campaign":"spring"}}"#, { $0.campaign = Hit.Campaign(source: "mail") }),
        ]
        for (index, (json, unset)) in cases.enumerated() {
            var holding = visitor
            if index == 1 { holding.country = 0 }
            #expect(try conditions(json).hold(for: holding), "\(json) holds")
            var other = holding
            unset(&other)
            #expect(try !conditions(json).hold(for: other), "\(json) does not hold once changed")
        }
        visitor.osVersion = nil
        #expect(
            try !conditions(#"{"platforms":[{"platform":"ios","minVersion":"16"}]}"#).hold(for: visitor),
            "an unknown version is in no range")
    }

    @Test func acceptLanguageQualitiesDecideTheFirstLanguage() {
        #expect(TargetVisitor.firstLanguage("fr;q=0.4, de-AT;q=0.9, en;q=0.1") == "de-AT")
        #expect(TargetVisitor.firstLanguage("en, de") == "en")
        #expect(TargetVisitor.firstLanguage("*, de;q=0.5") == "de")
        #expect(TargetVisitor.firstLanguage("de;q=0") == nil)
        #expect(TargetVisitor.firstLanguage("de;q=0.5, en;q=0.50") == "de", "the first of equals")
        #expect(TargetVisitor.firstLanguage("fr;q=1.0, de") == "fr")
        #expect(TargetVisitor.firstLanguage("de;q=abc, en;q=0.1") == "en", "a quality that is no number is none")
        #expect(TargetVisitor.firstLanguage("  de-CH ; q=0.8 , en;q=0.9") == "en")
        #expect(TargetVisitor.firstLanguage(" de-CH ;q=0.8") == "de-CH")
        #expect(TargetVisitor.firstLanguage("de;level=1;q=0.2, en;q=0.9") == "de", "only a leading q= is a quality")
        #expect(TargetVisitor.firstLanguage("") == nil && TargetVisitor.firstLanguage(",,") == nil)
        #expect(ServedTargeting.Conditions.language("de", matches: "de-AT"))
        #expect(!ServedTargeting.Conditions.language("de", matches: "den"))
        #expect(ServedTargeting.Conditions.language("pt-br", matches: "pt-BR"))
        #expect(ServedTargeting.Conditions.language("de", matches: "DE_ch") && !ServedTargeting.Conditions.language("de", matches: "d"))
        #expect(ServedTargeting.Conditions.language("de", matches: "x-de-AT".dropFirst(2)), "a part of a longer text")
        #expect(TargetVisitor.firstLanguage("en-GB;q=0.2, fr-CH;q=0.9, de;q=0.1, it;q=0.05") == "fr-CH", "a header on the heap")
    }

    /// OS versions as the schema's pattern has them, and the texts the general reading decides (read the same way
    /// before and after the digits' own pass).
    @Test func osVersionsReadAsBefore() {
        let cases: [(String, (Int32, Int32, Int32)?)] = [
            ("17", (17, 0, 0)), ("16.4", (16, 4, 0)), ("14.0.1", (14, 0, 1)), ("007.08", (7, 8, 0)),
            ("999999.0.999999", (999_999, 0, 999_999)),
            ("1234567", nil), ("1.2.3.4", nil), ("", nil), (".", nil), ("1.", nil), (".1", nil), ("1..2", nil), ("17.x", nil),
            ("١٧", nil), ("-1", nil), ("1 ", nil),
            // Not the pattern, yet read by the general reading as they always were.
            ("+17", (17, 0, 0)), ("-0", (0, 0, 0)),
        ]
        for (text, parts) in cases {
            let version = LinkTargeting.OSVersion(text)
            #expect(version.map { [$0.parts.0, $0.parts.1, $0.parts.2] } == parts.map { [$0.0, $0.1, $0.2] }, "\(text)")
        }
    }
}
