import Foundation
import UserAgents

/// The cost of a `User-Agent` linkd has not seen (what `UserAgentCache` pays once per distinct agent): every agent
/// of uap-core's browser and OS test files, parsed once each, as hits parse them (browser and OS) and whole.
struct AgentBenchmark {
    static let root = "/usr/share/uap-core/"

    /// (what was parsed, distinct agents, mean µs per agent), and the regexes' load time in ms (without and with
    /// the device section).
    func run() throws -> (load: [Double], results: [(String, Int, Double)]) {
        let clock = ContinuousClock()
        var parsers: [UserAgentParser] = []
        var load: [Double] = []
        for devices in [false, true] {
            load.append(try clock.measure { parsers.append(try UserAgentParser(contentsOf: Self.root + "regexes.yaml", devices: devices)) }
                .seconds * 1000)
        }
        var agents: [String] = []
        for file in ["tests/test_ua.yaml", "tests/test_os.yaml"] {
            agents += try YAMLNode.load(contentsOf: Self.root + file)["test_cases"]?.items.compactMap { $0["user_agent_string"]?.text } ?? []
        }
        agents = Array(Set(agents)).sorted()
        var results: [(String, Int, Double)] = []
        for (name, parser) in zip(["browser and OS (a hit's)", "browser, OS and device"], parsers) {
            var known = 0
            let elapsed = clock.measure {
                for agent in agents where parser.parse(agent).browser.isKnown { known += 1 }
            }
            results.append((name, agents.count, elapsed.seconds * 1e6 / Double(agents.count)))
        }
        return (load, results)
    }
}
