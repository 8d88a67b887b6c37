import Testing
@testable import LinkKit

@Suite("CompiledDomain")
struct CompiledDomainTests {
    let widget = DestinationType.widgetDetail

    var apps: [DomainApp] {
        [
            DomainApp(id: "a", platform: .ios, identifier: "ABCDE12345.com.example.app", destinations: [widget]),
            DomainApp(id: "b", platform: .ios, identifier: "ABCDE12345.com.example.other"),
            DomainApp(
                id: "d", platform: .android, identifier: "com.example.app",
                fingerprints: ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"],
                destinations: [widget]),
        ]
    }

    func rule(
        _ id: String, apps: [String] = ["a", "d"], path: String? = nil, query: RuleQuery? = nil, exclude: Bool? = nil,
        destination: DestinationBinding? = nil
    ) throws -> LinkRule {
        LinkRule(id: id, apps: apps, path: try path.map { try RulePattern($0) }, query: query, exclude: exclude, destination: destination)
    }

    func domain(_ rules: [LinkRule], legacy: Bool = false) -> CompiledDomain {
        CompiledDomain(settings: DomainSettings(hostname: "links.example.com", legacyPaths: legacy), apps: apps, rules: rules)
    }

    @Test func consecutiveRulesForTheSameAppsShareAnEntry() throws {
        let compiled = domain([
            try rule("r0", apps: ["a"], path: "/private/*", exclude: true),
            try rule("r1", apps: ["a"], path: "/widget/{id}", destination: DestinationBinding(type: "widgetDetail")),
            try rule("r2", apps: ["b"], path: "/other/*"),
            try rule("r3", apps: ["a"], path: "/help"),
        ])
        #expect(
            compiled.aasaJSON
                == #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/private/*","exclude":true},{"/":"/widget/?*"}]},{"appIDs":["ABCDE12345.com.example.other"],"components":[{"/":"/other/*"}]},{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/help"}]}]}}"#
        )
    }

    @Test func generationIsByteStable() throws {
        let rules = [try rule("r1", path: "/widget/{id}"), try rule("r2", path: "/docs/{rest*}")]
        #expect(domain(rules).aasaJSON == domain(rules).aasaJSON)
        #expect(domain(rules).assetLinksJSON == domain(rules).assetLinksJSON)
    }

    @Test func resolveGivesTypedDestinations() throws {
        let compiled = domain([
            try rule(
                "r1", path: "/widget/{id}", query: .items([RuleQueryItem(name: "tab", pattern: try RulePattern("*"))]),
                destination: DestinationBinding(type: "widgetDetail"))
        ])
        let result = compiled.resolve(try AASAURL("https://links.example.com/widget/42"))
        #expect(result.outcome == .openApp)
        #expect(result.app?.id == "a")
        #expect(result.rule?.id == "r1")
        #expect(result.position == 0)
        #expect(result.destination == .destination(type: "widgetDetail", params: [("id", .int(42))]))
    }

    @Test func queryCapturesBecomeParams() throws {
        let compiled = domain([
            try rule(
                "r1", path: "/widget/{id}", query: .items([RuleQueryItem(name: "tab", pattern: try RulePattern("{tab}"))]),
                destination: DestinationBinding(type: "widgetDetail"))
        ])
        let result = compiled.resolve(try AASAURL("https://links.example.com/widget/7?tab=reviews&utm=x"))
        #expect(result.destination == .destination(type: "widgetDetail", params: [("id", .int(7)), ("tab", .string("reviews"))]))
        // `tab` is optional: a link may leave the item out (docs/LINKS.md).
        #expect(
            compiled.resolve(try AASAURL("https://links.example.com/widget/7")).destination
                == .destination(type: "widgetDetail", params: [("id", .int(7))]))
    }

    @Test func queryItemCapturesFollowTheRuleForm() throws {
        // Names compared without case and decoded, the value decoded once: "TAB" is the rule's "Tab", "re%76iews" is "reviews".
        let loose = LinkRule(
            id: "r1", apps: ["a"], path: try RulePattern("/widget/{id}"),
            query: .items([RuleQueryItem(name: "Tab", pattern: try RulePattern("{tab}"))]),
            caseSensitive: false, percentEncoded: false, destination: DestinationBinding(type: "widgetDetail"))
        let compiled = domain([loose])
        for query in ["TAB=re%76iews", "&&x&T%41b=re%76iews&", "utm=1&tab=re%76iews"] {
            let result = compiled.resolve(try AASAURL("https://links.example.com/widget/7?" + query))
            #expect(
                result.destination == .destination(type: "widgetDetail", params: [("id", .int(7)), ("tab", .string("reviews"))]), "\(query)"
            )
        }
        // As written: the name must be exact.
        let exact = domain([
            try rule(
                "r1", path: "/widget/{id}", query: .items([RuleQueryItem(name: "Tab", pattern: try RulePattern("{tab}"))]),
                destination: DestinationBinding(type: "widgetDetail"))
        ])
        // (`TAB` is another item: `Tab`, optional, is absent.)
        #expect(
            exact.resolve(try AASAURL("https://links.example.com/widget/7?TAB=info")).destination
                == .destination(type: "widgetDetail", params: [("id", .int(7))]))
        #expect(
            exact.resolve(try AASAURL("https://links.example.com/widget/7?Tab=info")).destination
                == .destination(type: "widgetDetail", params: [("id", .int(7)), ("tab", .string("info"))]))
    }

    @Test func invalidCapturesGiveAnErrorDestinationButTheAppOpens() throws {
        let compiled = domain([try rule("r1", path: "/widget/{id}", destination: DestinationBinding(type: "widgetDetail"))])
        for url in ["https://links.example.com/widget/abc", "https://links.example.com/widget/0", "https://links.example.com/widget/1/2"] {
            let result = compiled.resolve(try AASAURL(url))
            #expect(result.outcome == .openApp, "\(url)")
            guard case .error(let error)? = result.destination else {
                Issue.record("expected an error destination for \(url)")
                continue
            }
            #expect(error.code == .invalidParam)
        }
    }

    @Test func exclusionsAndNoMatch() throws {
        let compiled = domain([
            try rule("r0", path: "/widget/secret", exclude: true),
            try rule("r1", path: "/widget/{id}", destination: DestinationBinding(type: "widgetDetail")),
        ])
        let excluded = compiled.resolve(try AASAURL("https://links.example.com/widget/secret"))
        #expect(excluded.outcome == .excluded)
        #expect(excluded.rule?.id == "r0")
        #expect(excluded.destination == nil)
        #expect(compiled.resolve(try AASAURL("https://links.example.com/elsewhere")) == .noMatch)
    }

    @Test func androidUsesTheSameRules() throws {
        let compiled = domain([try rule("r1", path: "/widget/{id}", destination: DestinationBinding(type: "widgetDetail"))])
        let result = compiled.resolve(try AASAURL("https://links.example.com/widget/5"), platform: .android)
        #expect(result.outcome == .openApp)
        #expect(result.app?.identifier == "com.example.app")
        #expect(result.destination == .destination(type: "widgetDetail", params: [("id", .int(5))]))
        #expect(!compiled.aasaJSON.contains("\"com.example.app\""), "Android packages never appear in the AASA")
    }

    /// The iOS matcher and the Android tables are made on first use: compiling, the association files and the apps
    /// the rules name need neither, so a catalog of thousands of domains holds them only for the domains resolved
    /// (the Android tables only for those Android asks about); once made, they answer as tables made at once do,
    /// and are kept.
    @Test(arguments: [false, true]) func androidTablesAreMadeOnFirstUse(dynamic: Bool) throws {
        let rules = [
            try rule("r0", path: "/private/*", exclude: true),
            try rule("r1", path: "/widget/{id}", destination: DestinationBinding(type: "widgetDetail")),
            try rule("r2", apps: ["b"], path: "/help"),
        ]
        let settings = DomainSettings(hostname: "links.example.com", androidDynamicRules: dynamic)
        let compiled = CompiledDomain(settings: settings, apps: apps, rules: rules)
        let urls = try ["/widget/42", "/private/x", "/help", "/nothing"].map { try AASAURL("https://links.example.com" + $0) }
        #expect(compiled.appsNamedByRules(.android).map(\.id) == ["d"])
        #expect(compiled.appsNamedByRules(.ios).map(\.id) == ["a", "b"])
        #expect(compiled.assetLinksJSON.contains("dynamic_app_link_components") == dynamic)
        #expect(!compiled.iosMatcherMade)
        #expect(compiled.resolve(urls[0], platform: .ios).app?.id == "a")
        #expect(compiled.resolve(urls[2], platform: .ios).app?.id == "b")
        #expect(compiled.iosMatcherMade)
        #expect(compiled.iosTablesNow === compiled.iosTablesNow)
        #expect(compiled.iosApps.compactMap { $0?.id } == compiled.appsNamedByRules(.ios).map(\.id))
        #expect(!compiled.androidTablesMade)

        let eager = AndroidAppLinks(settings: settings, rules: rules, apps: CompiledDomain.appsByID(apps))
        #expect(compiled.android.apps.map(\.app.id) == compiled.appsNamedByRules(.android).map(\.id))
        for url in urls {
            let decision = eager.decide(url)
            let resolution = compiled.resolve(url, platform: .android)
            #expect(resolution.position == decision?.position && resolution.app?.id == decision.map { eager.apps[$0.app].app.id })
        }
        #expect(compiled.androidTablesMade)
        #expect(compiled.android === compiled.android)
    }

    @Test func assetLinksListAndroidApps() throws {
        let compiled = domain([try rule("r1", path: "/widget/{id}")])
        let statements = try #require(compiled.assetLinks.arrayValue)
        #expect(statements.count == 1)
        #expect(statements[0]["target"]?["package_name"]?.stringValue == "com.example.app")
        #expect(statements[0]["relation"]?.arrayValue == [.string("delegate_permission/common.handle_all_urls")])
    }

    @Test func legacyPathsWriteOneEntryPerAppWithPaths() throws {
        let compiled = domain(
            [
                try rule("r0", apps: ["a", "b"], path: "/private/*", exclude: true),
                try rule("r1", apps: ["a", "b"], path: "/widget/{id}"),
                try rule("r2", apps: ["a", "b"], path: "/search", query: .string("q=*")),
            ], legacy: true)
        let file = compiled.aasa
        #expect(file.applinks?.apps == [])
        #expect(file.applinks?.details.map(\.appIDs) == [["ABCDE12345.com.example.app"], ["ABCDE12345.com.example.other"]])
        #expect(file.applinks?.details[0].paths == ["NOT /private/*", "/widget/?*"], "a query-constrained rule cannot be a legacy path")
        #expect(compiled.aasaJSON.contains(#""appID":"ABCDE12345.com.example.app""#), "iOS 12 reads appID")
        // Resolution is unchanged: the first listed app still wins.
        #expect(compiled.resolve(try AASAURL("https://links.example.com/widget/1")).app?.id == "a")
    }

    @Test(
        "resolve agrees with the matcher over the served file",
        arguments: [
            "https://links.example.com/widget/42", "https://links.example.com/WIDGET/42", "https://links.example.com/docs",
            "https://links.example.com/docs/a/b", "https://links.example.com/", "https://links.example.com/widget/",
        ])
    func agreesWithServedFile(url: String) throws {
        let compiled = domain([
            try rule("r1", path: "/widget/{id}", destination: DestinationBinding(type: "widgetDetail")),
            try rule("r2", apps: ["b"], path: "/docs/{rest*}"),
        ])
        let served = AASAMatcher(try AASAFile.decode(compiled.aasaJSON))
        let parsed = try AASAURL(url)
        let expected = served.resolve(parsed)
        let actual = compiled.resolve(parsed)
        #expect(actual.app?.identifier == expected.appID)
        #expect(actual.detailIndex == expected.detailIndex)
        #expect(actual.componentIndex == expected.componentIndex)
    }
}

/// The compiled domain (rules compiled once for both platforms, packed rules) must decide exactly as the matcher over
/// the file it serves, on a varied rule set, for many URLs; and its files must be what the file model encodes.
@Suite("CompiledDomain agrees with its served file")
struct CompiledDomainAgreementTests {
    static let apps = [
        DomainApp(id: "a", platform: .ios, identifier: "ABCDE12345.com.example.app"),
        DomainApp(id: "b", platform: .ios, identifier: "ABCDE12345.com.example.other"),
        DomainApp(id: "d", platform: .android, identifier: "com.example.app", fingerprints: ["AA:BB"]),
    ]

    static func rules(seed: UInt64) throws -> [LinkRule] {
        var random = SeededRandom(seed: seed)
        let paths = [
            "/a/{id}", "/a/*", "/a", "/ab{x}", "*", "/docs/{rest*}", "/$(lang)/*", "/A/{id}", "/s1/d1/{id}", "/s12/d1/{id}", "/x/y",
        ]
        return try (0..<30).map { index in
            LinkRule(
                id: "r\(index)", apps: random.pick([["a"], ["a", "d"], ["b", "a"], ["d"], ["a", "b", "d"]]),
                path: try RulePattern(random.pick(paths)),
                query: random.pick([nil, .string("q=*"), .items([RuleQueryItem(name: "k", pattern: try RulePattern("{k}"))])]),
                fragment: random.pick([nil, nil, try RulePattern("f")]),
                exclude: random.pick([nil, true]), caseSensitive: random.pick([nil, false]), percentEncoded: random.pick([nil, false])
            )
        }
    }

    @Test(arguments: 0..<20)
    func decidesAsTheServedFile(_ seed: Int) throws {
        let rules = try Self.rules(seed: UInt64(seed))
        for legacy in [false, true] {
            let settings = DomainSettings(
                hostname: "links.example.com", defaults: seed % 3 == 0 ? AASAComponent(caseSensitive: false) : nil,
                substitutionVariables: [SubstitutionVariable(name: "lang", values: ["en", "fr"])], legacyPaths: legacy
            )
            let compiled = CompiledDomain(settings: settings, apps: Self.apps, rules: rules)
            #expect(compiled.rules == rules)
            #expect(compiled.aasaJSON == compiled.aasa.encoded())
            #expect(compiled.assetLinksJSON == compiled.assetLinks.serialized)
            let served = AASAMatcher(try AASAFile.decode(compiled.aasaJSON))
            var random = SeededRandom(seed: UInt64(seed) &+ 77)
            for _ in 0..<40 {
                let path = random.pick([
                    "/a/1", "/A/1", "/a", "/ab7", "/docs", "/docs/x/y", "/en/z", "/s1/d1/9", "/s12/d1/9", "/x/y", "/", "/a/1/2",
                ])
                let url = try AASAURL("https://links.example.com" + path + random.pick(["", "?q=1", "?k=v", "#f", "?k=%41#f"]))
                let expected = served.resolve(url)
                let actual = compiled.resolve(url)
                #expect(actual.app?.identifier == expected.decision?.appID, "\(seed) \(url)")
                #expect(
                    actual.outcome == (expected.appID != nil ? .openApp : expected.decision != nil ? .excluded : .noMatch), "\(seed) \(url)"
                )
                #expect(actual.detailIndex == expected.detailIndex && actual.componentIndex == expected.componentIndex, "\(seed) \(url)")
                if let position = actual.position { #expect(actual.rule == rules[position]) }
            }
        }
    }
}
