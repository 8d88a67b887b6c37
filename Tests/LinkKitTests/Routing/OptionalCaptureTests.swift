import Testing
@testable import LinkKit

/// A capture whose parameter the destination declares optional, in each place a capture can stand (path, query
/// item, fragment): the AASA file writes a pattern that also matches its absence, resolve answers the destination
/// without it on iOS and on Android (manifest only and with dynamic rules), and build prints the link without it.
@Suite("Optional captures")
struct OptionalCaptureTests {
    static let types = [
        DestinationType(
            name: "product",
            parameters: [
                ParameterSpec(name: "id", kind: .int(min: 1, max: nil)),
                ParameterSpec(name: "tab", kind: .enumeration(["info", "reviews"]), optional: true),
            ]),
        DestinationType(
            name: "category", parameters: [ParameterSpec(name: "slug", kind: .string(minLength: 1, maxLength: nil), optional: true)]),
        DestinationType(
            name: "section", parameters: [ParameterSpec(name: "name", kind: .string(minLength: 1, maxLength: nil), optional: true)]),
        DestinationType(
            name: "coupon", parameters: [ParameterSpec(name: "code", kind: .string(minLength: 1, maxLength: nil), optional: true)]),
    ]
    static let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    static let ios = DomainApp(id: "i", platform: .ios, identifier: "ABCDE12345.com.example.shop", destinations: types)
    static let android = DomainApp(
        id: "d", platform: .android, identifier: "com.example.shop", fingerprints: [fingerprint], destinations: types)
    /// Declares `code` required: a capture one app needs stays required for every app of the rule.
    static let strict = DomainApp(
        id: "s", platform: .ios, identifier: "ABCDE12345.com.example.strict",
        destinations: [
            DestinationType(name: "coupon", parameters: [ParameterSpec(name: "code", kind: .string(minLength: 1, maxLength: nil))])
        ])

    static func rules() throws -> [LinkRule] {
        let apps = ["i", "d"]
        return [
            LinkRule(
                id: "product", apps: apps, path: try RulePattern("/p/{id}"),
                query: .items([RuleQueryItem(name: "tab", pattern: try RulePattern("{tab}"))]),
                destination: DestinationBinding(type: "product")),
            LinkRule(id: "category", apps: apps, path: try RulePattern("/c/{slug}"), destination: DestinationBinding(type: "category")),
            LinkRule(
                id: "section", apps: apps, path: try RulePattern("/s"), fragment: try RulePattern("{name}"),
                destination: DestinationBinding(type: "section")),
            LinkRule(id: "coupon", apps: ["i", "s"], path: try RulePattern("/k/{code}"), destination: DestinationBinding(type: "coupon")),
        ]
    }

    static func domain(dynamic: Bool) throws -> CompiledDomain {
        CompiledDomain(
            settings: DomainSettings(hostname: "shop.example.com", androidDynamicRules: dynamic), apps: [ios, android, strict],
            rules: try rules())
    }

    @Test func theFileWritesAPatternThatMatchesAbsence() throws {
        let components = try Self.domain(dynamic: true).aasa.applinks?.details.first?.components ?? []
        #expect(components.first?.query == .items([QueryItemPattern(name: "tab", pattern: "*")]))
        #expect(components.first?.path == "/p/?*")
        #expect(components.dropFirst().first?.path == "/c/*")
        #expect(components.dropFirst(2).first?.fragment == "*")
        // Required by one of its apps: still one character at least.
        let json = try Self.domain(dynamic: true).aasaJSON
        #expect(json.contains(#""/":"/k/?*""#), "\(json)")
    }

    /// (URL, expected destination) on every platform and Android mode.
    static let cases: [(url: String, rule: String, destination: ResolvedDestination)] = [
        ("https://shop.example.com/p/42", "product", .destination(type: "product", params: [("id", .int(42))])),
        ("https://shop.example.com/p/42?tab=", "product", .destination(type: "product", params: [("id", .int(42))])),
        (
            "https://shop.example.com/p/42?tab=reviews", "product",
            .destination(type: "product", params: [("id", .int(42)), ("tab", .string("reviews"))])
        ),
        ("https://shop.example.com/c", "category", .destination(type: "category", params: [])),
        ("https://shop.example.com/c/", "category", .destination(type: "category", params: [])),
        ("https://shop.example.com/c/shoes", "category", .destination(type: "category", params: [("slug", .string("shoes"))])),
        ("https://shop.example.com/s", "section", .destination(type: "section", params: [])),
        ("https://shop.example.com/s#faq", "section", .destination(type: "section", params: [("name", .string("faq"))])),
    ]

    @Test func resolveAnswersTheDestinationWithoutTheCaptureOnBothPlatforms() throws {
        for dynamic in [false, true] {
            let domain = try Self.domain(dynamic: dynamic)
            for (text, rule, destination) in Self.cases {
                for platform in [AppPlatform.ios, .android] {
                    let resolved = domain.resolve(try AASAURL(text), platform: platform)
                    #expect(
                        resolved.outcome == .openApp && resolved.rule?.id == rule,
                        "\(text) \(platform) dynamic \(dynamic): \(resolved.outcome)")
                    #expect(
                        resolved.destination == destination,
                        "\(text) \(platform) dynamic \(dynamic): \(String(describing: resolved.destination))")
                }
            }
        }
        // The required capture still needs its text.
        #expect(try Self.domain(dynamic: true).resolve(try AASAURL("https://shop.example.com/k"), platform: .ios).outcome == .noMatch)
    }

    @Test func buildPrintsTheLinkWithoutTheCaptureAndResolveAgrees() throws {
        for dynamic in [false, true] {
            let domain = try Self.domain(dynamic: dynamic)
            let builder = LinkBuilder(domain: domain, host: "shop.example.com")
            let wanted: [(type: String, values: [String: TypedValue], url: String)] = [
                ("product", ["id": .int(7)], "https://shop.example.com/p/7"),
                ("product", ["id": .int(7), "tab": .string("info")], "https://shop.example.com/p/7?tab=info"),
                ("category", [:], "https://shop.example.com/c/"),
                ("category", ["slug": .string("shoes")], "https://shop.example.com/c/shoes"),
                ("section", [:], "https://shop.example.com/s"),
                ("section", ["name": .string("faq")], "https://shop.example.com/s#faq"),
            ]
            for (type, values, url) in wanted {
                for app in [Self.ios, Self.android] {
                    let built = builder.build(type, values, for: app)
                    guard case .success(let link) = built else {
                        Issue.record("\(type) \(values) for \(app.platform) dynamic \(dynamic): \(built)")
                        continue
                    }
                    #expect(link.url.text == url)
                    let resolved = domain.resolve(link.url, platform: app.platform)
                    #expect(
                        resolved.destination
                            == LinkBuilder.expected(type, values, link.rule.destination!, Self.types.first { $0.name == type }!))
                }
            }
        }
    }

    @Test func extractionAndPrintingOfAnOptionalTemplate() throws {
        let template = try RouteTemplate("/c/{slug}").withOptionalCaptures(["slug"])
        #expect(template.aasaPattern == "/c/*")
        #expect(template.description == "/c/{slug}")
        #expect(template.captures(in: "/c") == ["slug": ""])
        #expect(template.captures(in: "/c/") == ["slug": ""])
        #expect(template.captures(in: "/c/x") == ["slug": "x"])
        #expect(template.captures(in: "/c/x/y") == nil)
        #expect(template.printed([:], isPath: true, percentEncoded: true) == "/c/")
        let middle = try RouteTemplate("/w/{id}/info").withOptionalCaptures(["id"])
        #expect(middle.aasaPattern == "/w/*/info")
        #expect(middle.captures(in: "/w//info") == ["id": ""])
        let value = try RouteTemplate("t-{tab}").withOptionalCaptures(["tab"])
        #expect(value.captures(in: "t-", isPath: false) == ["tab": ""])
        #expect(value.printed([:], isPath: false, percentEncoded: true) == "t-")
        // A rest capture is not marked (it already takes the empty rest), nor is a name the template lacks.
        #expect(try RouteTemplate("/d/{rest*}").withOptionalCaptures(["rest", "x"]).optionalCaptures.isEmpty)
    }

    @Test func packingKeepsTheOptionalCaptures() throws {
        let domain = try Self.domain(dynamic: false)
        guard case .template(let template)? = domain.rules[1].path else { Issue.record("no template"); return }
        #expect(template.optionalCaptures == ["slug"])
        guard case .items(let items)? = domain.rules[0].query, case .template(let tab) = items[0].pattern else {
            Issue.record("no item"); return
        }
        #expect(tab.optionalCaptures == ["tab"])
    }
}
