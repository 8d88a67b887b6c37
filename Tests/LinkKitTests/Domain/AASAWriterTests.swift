import Testing
@testable import LinkKit

/// The AASA bytes a compiled domain writes straight from its rules (`AASAWriter`) are the bytes of the file's tree
/// (`CompiledDomain.aasa`, rebuilt from the unpacked rules, serialized): one shape of file whichever way it is made.
@Suite("AASAWriter")
struct AASAWriterTests {
    let widget = DestinationType.widgetDetail

    var apps: [DomainApp] {
        [
            DomainApp(id: "a", platform: .ios, identifier: "ABCDE12345.com.example.app", destinations: [widget]),
            DomainApp(id: "b", platform: .ios, identifier: "ABCDE12345.com.example.\"quoted\""),
            DomainApp(id: "c", platform: .ios, identifier: "ABCDE12345.com.example.clip"),
            DomainApp(
                id: "d", platform: .android, identifier: "com.example.app",
                fingerprints: ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"],
                destinations: [widget]),
        ]
    }

    /// Rules of every shape a component has: templates (one-segment, rest and optional captures, literals that need
    /// escapes, non-ASCII), raw patterns, a whole-query pattern, query items, fragments, every option and comments.
    func rules() throws -> [LinkRule] {
        let widgetDestination = DestinationBinding(type: "widgetDetail")
        return [
            LinkRule(id: "r0", apps: ["a", "d"], path: try RulePattern("/private/*"), exclude: true),
            LinkRule(id: "r1", apps: ["a", "d"], path: try RulePattern("/widget/{id}"), destination: widgetDestination),
            LinkRule(
                id: "r2", apps: ["a", "d"], path: try RulePattern("/w/{id}/{tab}"),
                query: .items([RuleQueryItem(name: "tab", pattern: try RulePattern("{tab}"))]), destination: widgetDestination),
            LinkRule(id: "r3", apps: ["a"], path: try RulePattern("/docs/{rest*}"), fragment: try RulePattern("sec-{part}")),
            LinkRule(
                id: "r4", apps: ["b"], path: try RulePattern("/q\"uo\\te/\u{1}{id}"), query: .string("a=*&b=?"),
                caseSensitive: false, percentEncoded: false, comment: "tab\there \"quoted\" é"),
            LinkRule(id: "r5", apps: ["b", "a"], path: try RulePattern("/café/{id}"), fragment: try RulePattern("*"), exclude: false),
            LinkRule(id: "r6", apps: ["a"], query: .items([RuleQueryItem(name: "ref\"", pattern: try RulePattern("camp_*"))])),
            LinkRule(id: "r7", apps: ["d"], path: try RulePattern("/android/only")),
            LinkRule(id: "r8", apps: ["a"], path: try RulePattern("/$(lang)/*"), comment: ""),
            LinkRule(id: "r9", apps: [], path: try RulePattern("/nobody")),
        ]
    }

    func check(_ settings: DomainSettings, _ rules: [LinkRule]) {
        let domain = CompiledDomain(settings: settings, apps: apps, rules: rules)
        #expect(domain.aasaJSON == domain.aasa.encoded())
    }

    @Test func writesTheTreesBytes() throws {
        check(DomainSettings(hostname: "links.example.com"), try rules())
    }

    @Test func writesDefaultsVariablesAndServices() throws {
        let settings = DomainSettings(
            hostname: "links.example.com", defaults: AASAComponent(caseSensitive: false, percentEncoded: true),
            substitutionVariables: [
                SubstitutionVariable(name: "lang", values: ["en", "fr"]), SubstitutionVariable(name: "q\"", values: []),
            ],
            webcredentials: ["a", "d", "b"], appclips: ["c"])
        check(settings, try rules())
        // Services naming no iOS app are left out, as the tree leaves them.
        check(DomainSettings(hostname: "links.example.com", webcredentials: ["d"], appclips: ["x"]), try rules())
    }

    @Test func writesTheLegacyForm() throws {
        check(DomainSettings(hostname: "links.example.com", webcredentials: ["a"], legacyPaths: true), try rules())
    }

    @Test func writesFilesWithoutRules() {
        check(DomainSettings(hostname: "links.example.com"), [])
        check(DomainSettings(hostname: "links.example.com", appclips: ["c"]), [])
    }
}
