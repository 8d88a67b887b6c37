import Testing
import Foundation
@testable import LinkKit

enum Probe {
    static func rss() -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "0 0"
        return Int(text.split(separator: " ")[1])! * 4096
    }
}

@Suite("MemoryProbe")
struct MemoryProbeTests {
    static func benchRules(domain d: Int) throws -> [LinkRule] {
        let seg = "d\(d)ws\(d % 100)/"
        return try (0..<100).map { p in
            switch p % 10 {
            case 0: return LinkRule(id: "0000000\(p)-aaaa-bbbb-cccc-dddddddddddd", apps: ["a", "d"], path: try RulePattern("/x\(p)/\(seg)*"), exclude: true)
            case 1: return LinkRule(id: "0000000\(p)-aaaa-bbbb-cccc-dddddddddddd", apps: ["a", "d"], path: try RulePattern("/q\(p)/\(seg){id}"),
                                    query: .items([RuleQueryItem(name: "tab", pattern: try RulePattern("*"))]), destination: DestinationBinding(type: "widgetDetail"))
            default: return LinkRule(id: "0000000\(p)-aaaa-bbbb-cccc-dddddddddddd", apps: ["a", "d"], path: try RulePattern("/s\(p)/\(seg){id}"), destination: DestinationBinding(type: "widgetDetail"))
            }
        }
    }

    @Test func perDomain() throws {
        let widget = DestinationType(name: "widgetDetail", parameters: [ParameterSpec(name: "id", kind: .int(min: 1, max: nil))])
        let apps = [
            DomainApp(id: "a", platform: .ios, identifier: "ABCDE12345.com.example.widgets", destinations: [widget]),
            DomainApp(id: "d", platform: .android, identifier: "com.example.widgets", fingerprints: ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"], destinations: [widget]),
        ]
        let n = 1000
        let before = Probe.rss()
        var kept: [CompiledDomain] = []
        let clock = ContinuousClock()
        let t = clock.measure {
            for d in 0..<n { kept.append(CompiledDomain(settings: DomainSettings(hostname: "d\(d).example"), apps: apps, rules: try! Self.benchRules(domain: d))) }
        }
        let after = Probe.rss()
        let bytes = Int(after) - Int(before)
        print("PROBE per domain: \(bytes / n) bytes in use, \(t / n) per domain; aasa \(kept[0].aasaJSON.utf8.count) bytes")
        print("PROBE layouts: LinkRule \(MemoryLayout<LinkRule>.stride) AASAComponent \(MemoryLayout<AASAComponent>.stride) CompiledRule \(MemoryLayout<CompiledRule>.stride) Entry \(MemoryLayout<RuleMatcher.Entry>.stride) AASARule \(MemoryLayout<AASARule>.stride) Pattern \(MemoryLayout<Pattern>.stride)")
        let ruleBytes = Probe.rss()
        _ = ruleBytes
        // Rules alone
        let b2 = Probe.rss()
        let more = try (0..<n).map { try Self.benchRules(domain: $0 + 1000) }
        let a2 = Probe.rss()
        print("PROBE LinkRules per domain: \((Int(a2) - Int(b2)) / n)")
        withExtendedLifetime((kept, more)) {}
    }
}
