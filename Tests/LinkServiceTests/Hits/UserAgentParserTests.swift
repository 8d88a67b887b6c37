import Foundation
import Testing
@testable import UserAgents

/// uap-core's own test cases (Debian's `uap-core` package: `tests/` and `test_resources/`), run against
/// `UserAgentParser` over the package's `regexes.yaml`, each file as uap-core's reference test (`tests/test.js`)
/// runs it: the browser files compare family, major, minor and patch; the OS files family and four version parts;
/// the device file family, brand and model. Each file's pass rate is printed; every case must pass.
@Suite("uap-core user agents")
struct UserAgentParserTests {
    static let root = "/usr/share/uap-core/"
    /// Loaded once for the process: compiling the regexes is the parser's start-up cost.
    static let parser = Result { try UserAgentParser(contentsOf: root + "regexes.yaml") }

    enum Kind: String, Sendable { case browser, os, device }

    static let files: [(String, Kind)] = [
        ("tests/test_ua.yaml", .browser),
        ("tests/test_os.yaml", .os),
        ("tests/test_device.yaml", .device),
        ("test_resources/firefox_user_agent_strings.yaml", .browser),
        ("test_resources/pgts_browser_list.yaml", .browser),
        ("test_resources/opera_mini_user_agent_strings.yaml", .browser),
        ("test_resources/podcasting_user_agent_strings.yaml", .browser),
        ("test_resources/additional_os_tests.yaml", .os),
    ]

    @Test(arguments: files.map(\.0))
    func everyCaseOfTheFilePasses(_ file: String) throws {
        let parser = try Self.parser.get()
        let kind = Self.files.first { $0.0 == file }!.1
        let cases = try YAMLNode.load(contentsOf: Self.root + file)["test_cases"]?.items ?? []
        #expect(!cases.isEmpty)
        var failures: [String] = []
        for testCase in cases {
            guard let agent = testCase["user_agent_string"]?.text else { continue }
            let expected: [String?], found: [String?]
            switch kind {
            case .browser:
                let browser = parser.browser(agent)
                expected = ["family", "major", "minor", "patch"].map { testCase[$0]?.text }
                found = [browser.family, browser.major, browser.minor, browser.patch]
            case .os:
                let os = parser.os(agent)
                expected = ["family", "major", "minor", "patch", "patch_minor"].map { testCase[$0]?.text }
                found = [os.family, os.major, os.minor, os.patch, os.patchMinor]
            case .device:
                let device = parser.device(agent)
                expected = ["family", "brand", "model"].map { testCase[$0]?.text }
                found = [device.family, device.brand, device.model]
            }
            if expected != found {
                failures.append("\(agent)\n    expected \(expected.map { $0 ?? "nil" }), got \(found.map { $0 ?? "nil" })")
            }
        }
        let passed = cases.count - failures.count
        print(String(format: "uap-core %@: %d/%d passed (%.2f%%)", file, passed, cases.count, 100 * Double(passed) / Double(cases.count)))
        for failure in failures { print("  FAIL \(failure)") }
        #expect(failures.isEmpty, "\(failures.count) of \(cases.count) cases of \(file) fail")
    }

    /// The cost of a new agent (every `User-Agent` of uap-core's browser and OS tests, each parsed whole once, as
    /// `UserAgentCache` parses an agent it has not kept), printed; and the prefilter never changes an answer:
    /// the same agents parsed with every regex run agree.
    @Test func newAgentCost() throws {
        let parser = try Self.parser.get()
        var agents: [String] = []
        for file in ["tests/test_ua.yaml", "tests/test_os.yaml"] {
            agents +=
                try YAMLNode.load(contentsOf: Self.root + file)["test_cases"]?.items.compactMap { $0["user_agent_string"]?.text } ?? []
        }
        agents = Array(Set(agents)).sorted()
        let clock = ContinuousClock()
        var parsed: [ParsedUserAgent] = []
        parsed.reserveCapacity(agents.count)
        let elapsed = clock.measure {
            for agent in agents { parsed.append(parser.parse(agent)) }
        }
        let micros = Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6
        print(
            String(
                format: "uap-core: %d distinct agents parsed in %.1f ms, mean %.1f µs per new agent (%d regexes)",
                agents.count, micros / 1000, micros / Double(agents.count), parser.regexCount))
        let unfiltered = try UserAgentParser(contentsOf: Self.root + "regexes.yaml", prefilters: false)
        var mismatches = 0
        let slow = clock.measure {
            for (agent, answer) in zip(agents, parsed) where unfiltered.parse(agent) != answer { mismatches += 1 }
        }
        let slowMicros = Double(slow.components.attoseconds) / 1e12 + Double(slow.components.seconds) * 1e6
        print(String(format: "uap-core: without the prefilters, mean %.1f µs per new agent", slowMicros / Double(agents.count)))
        #expect(parsed.count == agents.count)
        #expect(mismatches == 0)
        // The application's parser, without the device section: the same browsers and systems, no device.
        var loaded: UserAgentParser?
        let load = try clock.measure { loaded = try UserAgentParser(contentsOf: Self.root + "regexes.yaml", devices: false) }
        print("uap-core: the application's parser (no device section) loads in \(load)")
        let hits = try #require(loaded)
        #expect(
            zip(agents, parsed).allSatisfy { agent, answer in
                hits.parse(agent) == ParsedUserAgent(browser: answer.browser, os: answer.os, device: .other)
            })
    }
}
