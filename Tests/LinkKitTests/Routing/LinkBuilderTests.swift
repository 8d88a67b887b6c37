import Testing
@testable import LinkKit

/// Building links is the inverse of resolve: build, then resolve, gives back the destination and the rule.
@Suite("LinkBuilder")
struct LinkBuilderTests {
    static let types = [
        DestinationType(
            name: "widgetDetail",
            parameters: [
                ParameterSpec(name: "id", kind: .int(min: 1, max: 1_000_000_000_000)),
                ParameterSpec(name: "tab", kind: .enumeration(["info", "reviews", "q&a", "a b", "é/ü"]), optional: true),
            ]),
        DestinationType(
            name: "article",
            parameters: [
                ParameterSpec(name: "slug", kind: .string(minLength: 1, maxLength: 40)),
                ParameterSpec(name: "lang", kind: .enumeration(["en", "fr", "pt-BR"]), optional: true),
            ]),
        DestinationType(
            name: "doc", parameters: [ParameterSpec(name: "rest", kind: .string(minLength: nil, maxLength: nil), optional: true)]),
        DestinationType(
            name: "user",
            parameters: [
                ParameterSpec(name: "uid", kind: .uuid),
                ParameterSpec(name: "admin", kind: .bool, optional: true),
            ]),
        DestinationType(
            name: "search",
            parameters: [
                ParameterSpec(name: "term", kind: .string(minLength: 1, maxLength: nil)),
                ParameterSpec(name: "page", kind: .int(min: 1, max: 999), optional: true),
            ]),
        DestinationType(name: "plain", parameters: [ParameterSpec(name: "name", kind: .string(minLength: 1, maxLength: nil))]),
        DestinationType(name: "section", parameters: [ParameterSpec(name: "name", kind: .string(minLength: 1, maxLength: nil))]),
        DestinationType(name: "about", parameters: []),
        DestinationType(name: "promo", parameters: [ParameterSpec(name: "code", kind: .string(minLength: nil, maxLength: nil))]),
    ]
    static let app = DomainApp(
        id: "a", platform: .ios, identifier: "ABCDE12345.com.example.app", destinations: types, customScheme: "widgets")
    static let other = DomainApp(id: "b", platform: .ios, identifier: "ABCDE12345.com.example.other", destinations: types)

    static func rule(
        _ id: String, apps: [String] = ["a"], _ path: String?, query: [(String, String)]? = nil, fragment: String? = nil,
        exclude: Bool? = nil, caseSensitive: Bool? = nil, percentEncoded: Bool? = nil, type: String? = nil
    ) throws -> LinkRule {
        LinkRule(
            id: id, apps: apps, path: try path.map { try RulePattern($0) },
            query: try query.map { .items(try $0.map { RuleQueryItem(name: $0.0, pattern: try RulePattern($0.1)) }) },
            fragment: try fragment.map { try RulePattern($0) }, exclude: exclude, caseSensitive: caseSensitive,
            percentEncoded: percentEncoded, destination: type.map { DestinationBinding(type: $0) })
    }

    static let domain: CompiledDomain = {
        let rules = try! [
            rule("x0", "/widget/13", exclude: true),
            rule("r1", "/widget/{id}", query: [("tab", "{tab}")], type: "widgetDetail"),
            rule("r2", "/widget/{id}", type: "widgetDetail"),
            rule("r3", "/articles/{slug}", query: [("lang", "{lang}")], caseSensitive: false, type: "article"),
            rule("r4", "/articles/{slug}", caseSensitive: false, type: "article"),
            rule("r5", "/docs/{rest*}", type: "doc"),
            rule("r6", "/u/{uid}", query: [("admin", "{admin}")], type: "user"),
            rule("r7", "/u/{uid}", type: "user"),
            rule("r8", "/search", query: [("q", "{term}"), ("p", "{page}")], type: "search"),
            rule("r9", "/search", query: [("q", "{term}")], type: "search"),
            rule("r10", "/p/{name}", percentEncoded: false, type: "plain"),
            rule("r11", "/s", fragment: "{name}", type: "section"),
            rule("r12", "/about", type: "about"),
            rule("o1", apps: ["b"], "/promo/*", type: "promo"),
            rule("r13", "/promo/{code}", type: "promo"),
        ]
        return CompiledDomain(settings: DomainSettings(hostname: "links.example.com"), apps: [app, other], rules: rules)
    }()

    static let builder = LinkBuilder(domain: domain, host: "links.example.com")

    /// Text with characters that need percent-encoding in every part of a URL.
    static func text(_ random: inout SeededRandom, minimum: Int = 1) -> String {
        let pool: [String] = [
            "a", "Z", "7", "-", ".", "_", "~", " ", "/", "%", "?", "#", "&", "=", "+", ";", ":", "@", "!", "'", "é", "ü", "😀", "%41", "*",
        ]
        let count = minimum + Int(random.next() % 8)
        return (0..<count).map { _ in random.pick(pool) }.joined()
    }

    static func uuid(_ random: inout SeededRandom) -> String {
        let hex = Array("0123456789abcdef")
        let digits = (0..<32).map { _ in hex[Int(random.next() % 16)] }
        var out = ""
        for (index, digit) in digits.enumerated() {
            if [8, 12, 16, 20].contains(index) { out += "-" }
            out.append(digit)
        }
        return out
    }

    /// One random destination of every kind, and whether the rules can print it.
    static func destination(_ random: inout SeededRandom) -> (type: String, values: [String: TypedValue], buildable: Bool) {
        switch random.next() % 8 {
        case 0:
            var values: [String: TypedValue] = ["id": .int(Int64(1 + random.next() % 1_000_000_000_000))]
            if random.next() % 2 == 0 { values["tab"] = .string(random.pick(["info", "reviews", "q&a", "a b", "é/ü"])) }
            if values["id"] == .int(13) { values["id"] = .int(14) }
            return ("widgetDetail", values, true)
        case 1:
            var values: [String: TypedValue] = ["slug": .string(String(text(&random).prefix(40)))]
            if random.next() % 2 == 0 { values["lang"] = .string(random.pick(["en", "fr", "pt-BR"])) }
            return ("article", values, true)
        case 2:
            if random.next() % 4 == 0 { return ("doc", [:], true) }
            let rest = (0..<(1 + Int(random.next() % 3))).map { _ in text(&random).replacingOccurrences(of: "/", with: "") }.joined(
                separator: "/")
            // A trailing `/` is dropped by every matcher, and an empty value reads as absent: such a rest cannot
            // come back as written (`DestinationType.values` refuses the empty one).
            return ("doc", ["rest": .string(rest)], !rest.isEmpty && !rest.hasSuffix("/"))
        case 3:
            var values: [String: TypedValue] = ["uid": .uuid(uuid(&random))]
            if random.next() % 2 == 0 { values["admin"] = .bool(random.next() % 2 == 0) }
            return ("user", values, true)
        case 4:
            var values: [String: TypedValue] = ["term": .string(text(&random))]
            if random.next() % 2 == 0 { values["page"] = .int(Int64(1 + random.next() % 999)) }
            return ("search", values, true)
        case 5:
            let name = text(&random)
            // Compared decoded, a `/` would end the segment.
            return ("plain", ["name": .string(name)], !name.contains("/"))
        case 6:
            return ("section", ["name": .string(text(&random))], true)
        default:
            return ("about", [:], true)
        }
    }

    @Test(arguments: 0..<10)
    func buildThenResolveGivesBackTheDestinationAndRule(_ seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed) &* 7919 &+ 3)
        for _ in 0..<1_000 {
            let (type, values, buildable) = Self.destination(&random)
            let built = Self.builder.build(type, values, for: Self.app)
            guard case .success(let link) = built else {
                #expect(!buildable, "\(type) \(values): \(built)")
                continue
            }
            #expect(buildable, "\(type) \(values) built \(link.url.text)")
            let resolved = Self.domain.resolve(try AASAURL(link.url.text))
            #expect(resolved.outcome == .openApp && resolved.app?.id == "a", "\(link.url.text)")
            #expect(resolved.position == link.position && resolved.rule?.id == link.rule.id, "\(link.url.text)")
            #expect(
                resolved.destination == LinkBuilder.expected(type, values, link.rule.destination!, Self.app.destinations[type]!),
                "\(link.url.text)")
            // The custom-scheme form means the same path and query.
            let scheme = try AASAURL(link.custom(scheme: "widgets"))
            #expect(scheme.path == link.url.path && scheme.query == link.url.query && scheme.fragment == link.url.fragment)
            let forApp = Self.domain.resolve(scheme.universal(on: "links.example.com"), for: Self.app)
            #expect(forApp.position == link.position && forApp.destination == resolved.destination)
        }
    }

    @Test func printsTheFirstRuleThatCanPrintTheValues() throws {
        let withTab = try #require(
            try? Self.builder.build("widgetDetail", ["id": .int(42), "tab": .string("reviews")], for: Self.app).get())
        #expect(withTab.url.text == "https://links.example.com/widget/42?tab=reviews" && withTab.rule.id == "r1")
        #expect(withTab.custom(scheme: "widgets") == "widgets://widget/42?tab=reviews")
        let plain = try #require(try? Self.builder.build("widgetDetail", ["id": .int(42)], for: Self.app).get())
        // `tab` is optional: the rule with its item prints the link without it (and decides it).
        #expect(plain.url.text == "https://links.example.com/widget/42" && plain.rule.id == "r1")
        let encoded = try #require(try? Self.builder.build("search", ["term": .string("a b&c/é")], for: Self.app).get())
        #expect(encoded.url.text == "https://links.example.com/search?q=a%20b%26c%2F%C3%A9")
        #expect(try Self.builder.build("about", [:], for: Self.app).get().url.text == "https://links.example.com/about")
    }

    @Test func refusesAURLAnEarlierRuleShadows() {
        guard case .failure(.shadowed(let detail)) = Self.builder.build("widgetDetail", ["id": .int(13)], for: Self.app) else {
            Issue.record("built a link the exclusion at position 0 shadows")
            return
        }
        #expect(detail.contains("position 0") && detail.contains("excludes"))
        // Another app's earlier rule claims every /promo/ URL.
        guard case .failure(.shadowed) = Self.builder.build("promo", ["code": .string("x")], for: Self.app) else {
            Issue.record("built a link another app's earlier rule decides")
            return
        }
    }

    @Test func namesWhyNoRuleCanBuildIt() throws {
        let raw = CompiledDomain(
            settings: DomainSettings(hostname: "links.example.com"), apps: [Self.app],
            rules: [try Self.rule("w", "/w/*", type: "widgetDetail")])
        let result = LinkBuilder(domain: raw, host: "links.example.com").build("widgetDetail", ["id": .int(1)], for: Self.app)
        guard case .failure(.noRule(let detail)) = result else { Issue.record("\(result)"); return }
        #expect(detail.contains("raw AASA pattern"))
        guard case .failure(.noRule(let none)) = Self.builder.build("nothing", [:], for: Self.app) else { Issue.record("built"); return }
        #expect(none.contains("no destination type"))
    }

    @Test func checksValuesAgainstTheSchema() throws {
        let widget = Self.types[0]
        let checked = widget.values([
            JSONMember(key: "id", value: .number("0")), JSONMember(key: "tab", value: .string("x")),
            JSONMember(key: "extra", value: .bool(true)),
        ])
        #expect(checked.problems.map(\.pointer) == ["/id", "/tab", "/extra"])
        #expect(widget.values([]).problems.map(\.pointer) == ["/id"])
        #expect(Self.types[2].values([JSONMember(key: "rest", value: .string(""))]).problems.map(\.pointer) == ["/rest"])
        #expect(widget.values([JSONMember(key: "id", value: .string("4"))]).problems.first?.detail.contains("integer") == true)
        let good = widget.values([JSONMember(key: "id", value: .number("42"))])
        #expect(good.problems.isEmpty && good.values == ["id": .int(42)])
    }
}
