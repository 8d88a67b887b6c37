import Foundation
import UserAgents

/// The cost of a `User-Agent` linkd has not seen (what `UserAgentCache` pays once per distinct agent): every agent
/// of uap-core's browser and OS test files, parsed once each, as hits parse them (browser and OS) and whole.
struct AgentBenchmark {
    static let root = "/usr/share/uap-core/"

    /// (what was parsed, distinct agents, mean µs per agent over the median of 5 rounds, that round's 99th
    /// percentile µs), and the regexes' load time in ms (without and with the device section). Each round parses
    /// every agent once: a parser keeps nothing between agents, so every parse costs what a new agent costs.
    func run() throws -> (load: [Double], results: [(String, Int, Double, Double)]) {
        let clock = ContinuousClock()
        var parsers: [UserAgentParser] = []
        var load: [Double] = []
        for devices in [false, true] {
            load.append(
                try clock.measure { parsers.append(try UserAgentParser(contentsOf: Self.root + "regexes.yaml", devices: devices)) }
                    .seconds * 1000)
        }
        var agents: [String] = []
        for file in ["tests/test_ua.yaml", "tests/test_os.yaml"] {
            agents +=
                try YAMLNode.load(contentsOf: Self.root + file)["test_cases"]?.items.compactMap { $0["user_agent_string"]?.text } ?? []
        }
        agents = Array(Set(agents)).sorted()
        var results: [(String, Int, Double, Double)] = []
        for (name, parser) in zip(["browser and OS (a hit's)", "browser, OS and device"], parsers) {
            var rounds: [(mean: Double, p99: Double)] = []
            for _ in 0..<5 {
                var each: [Double] = []
                each.reserveCapacity(agents.count)
                for agent in agents {
                    let start = clock.now
                    _ = parser.parse(agent)
                    each.append((clock.now - start).seconds * 1e6)
                }
                each.sort()
                rounds.append((each.reduce(0, +) / Double(each.count), each[each.count * 99 / 100]))
            }
            let median = rounds.sorted { $0.mean < $1.mean }[2]
            results.append((name, agents.count, median.mean, median.p99))
        }
        return (load, results)
    }
}
