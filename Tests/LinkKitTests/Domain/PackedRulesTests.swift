import Testing
@testable import LinkKit

@Suite("PackedRules")
struct PackedRulesTests {
    /// Rules exercising every field and value kind: raw and template patterns (with a rest capture), query strings
    /// and items, fragments, each flag absent/false/true, comments, destinations with captures and constants,
    /// several app lists, non-ASCII text and strings longer than 127 bytes (two-byte lengths).
    static func variedRules() throws -> [LinkRule] {
        let long = "/" + String(repeating: "segment/", count: 40) + "{id}"
        let flags: [Bool?] = [nil, false, true]
        var rules: [LinkRule] = []
        for index in 0..<60 {
            let path: RulePattern? =
                switch index % 6 {
                case 0: nil
                case 1: try RulePattern("/raw/\(index)/*")
                case 2: try RulePattern("/w/{id}/x\(index)")
                case 3: try RulePattern("/docs/{rest*}")
                case 4: try RulePattern(long)
                default: try RulePattern("/café/{name}-{id}")
                }
            let query: RuleQuery? =
                switch index % 4 {
                case 0: nil
                case 1: .string("q=*")
                case 2:
                    .items([
                        RuleQueryItem(name: "tab", pattern: try RulePattern("{tab}")),
                        RuleQueryItem(name: "ref", pattern: try RulePattern("camp_*")),
                    ])
                default: .items([])
                }
            let destination: DestinationBinding? =
                switch index % 3 {
                case 0: nil
                case 1: DestinationBinding(type: "widgetDetail")
                default:
                    DestinationBinding(type: "t\(index)", params: ["id": .capture("id"), "tab": .constant("reviews"), "é": .constant("")])
                }
            rules.append(
                LinkRule(
                    id: index % 5 == 0 ? "" : "rule-\(index)", apps: [["a"], ["a", "b"], [], ["b", "a", "c"]][index % 4],
                    path: path, query: query,
                    fragment: index % 7 == 0 ? try RulePattern("#{frag}") : (index % 7 == 1 ? try RulePattern("top") : nil),
                    exclude: flags[index % 3], caseSensitive: flags[(index / 3) % 3], percentEncoded: flags[(index / 9) % 3],
                    comment: index % 8 == 0 ? "a comment ✓ \(String(repeating: "x", count: index * 3))" : nil, destination: destination
                ))
        }
        return rules
    }

    @Test func unpacksEveryRuleAsPacked() throws {
        let rules = try Self.variedRules()
        let packed = PackedRules(rules)
        #expect(packed.count == rules.count)
        #expect(packed.all == rules)
        for (index, rule) in rules.enumerated() {
            #expect(packed[index] == rule)
            if case .template(let template)? = rule.path, case .template(let unpacked)? = packed[index].path {
                #expect(unpacked.description == template.description, "the template's text as written")
            }
        }
    }

    @Test func emptyList() {
        #expect(PackedRules([]).all.isEmpty)
    }
}
