import Foundation

/// Reads browser, operating system and device from a `User-Agent` with the regexes of uap-core
/// (https://github.com/ua-parser/uap-core; Debian's `uap-core` installs them as `/usr/share/uap-core/regexes.yaml`),
/// as uap-core's reference parsers do: in each of the three sections the first regex that matches decides, and its
/// `*_replacement` values (with `$1`... for its groups) or else its groups give the fields.
///
/// The regexes are compiled once, at load (ICU's engine, through `NSRegularExpression`, which reads their
/// PCRE-style syntax). A regex runs only when the agent contains its `RequiredLiteral`, so an agent costs a
/// memory search per regex and a few regex runs. Callers keep the answers of agents seen again
/// (`UserAgentCache` in LinkService): a parse is for a new agent.
public final class UserAgentParser: Sendable {
    /// Where Debian's `uap-core` package installs the regexes.
    public static let debianRegexes = "/usr/share/uap-core/regexes.yaml"

    private let browsers: [UserAgentRule]
    private let systems: [UserAgentRule]
    private let devices: [UserAgentRule]

    /// The sections' fields, in the order of `UserAgentRule.replacements`.
    private static let browserKeys = ["family_replacement", "v1_replacement", "v2_replacement", "v3_replacement", "v4_replacement"]
    private static let systemKeys = ["os_replacement", "os_v1_replacement", "os_v2_replacement", "os_v3_replacement", "os_v4_replacement"]
    private static let deviceKeys = ["device_replacement", "brand_replacement", "model_replacement"]

    /// Loads and compiles the regexes of `path` (uap-core's `regexes.yaml`).
    /// - Throws: `UserAgentsError`: `.unreadable`, `.invalidYAML` (not YAML, or no `user_agent_parsers`,
    ///   `os_parsers` and `device_parsers` lists), `.invalidRegex`.
    /// - Parameter devices: false: the device section (about half the regexes) is neither compiled nor run, and every
    ///   answer's device is `Other`: for callers that need browser and OS only.
    public convenience init(contentsOf path: String = UserAgentParser.debianRegexes, devices: Bool = true) throws(UserAgentsError) {
        try self.init(contentsOf: path, devices: devices, prefilters: true)
    }

    /// `prefilters: false` runs every regex on every agent (tests compare both).
    init(contentsOf path: String, devices: Bool = true, prefilters: Bool) throws(UserAgentsError) {
        let root = try YAMLNode.load(contentsOf: path)
        func rules(_ section: String, _ keys: [String]) throws(UserAgentsError) -> [UserAgentRule] {
            guard let list = root[section], case .sequence(let entries) = list, !entries.isEmpty else {
                throw UserAgentsError(.invalidYAML, path: path, detail: "no '\(section)' list")
            }
            var rules: [UserAgentRule] = []
            rules.reserveCapacity(entries.count)
            for entry in entries { rules.append(try UserAgentRule(entry, replacementKeys: keys, path: path, prefilter: prefilters)) }
            return rules
        }
        browsers = try rules("user_agent_parsers", Self.browserKeys)
        systems = try rules("os_parsers", Self.systemKeys)
        self.devices = devices ? try rules("device_parsers", Self.deviceKeys) : []
    }

    /// How many regexes were loaded (browsers, systems, devices).
    public var regexCount: Int { browsers.count + systems.count + devices.count }

    /// Browser, operating system and device of `agent`.
    public func parse(_ agent: String) -> ParsedUserAgent {
        withSubject(agent) { subject in
            ParsedUserAgent(browser: browser(subject), os: os(subject), device: device(subject))
        }
    }

    /// The browser alone (uap-core's `user_agent_parsers`).
    public func browser(_ agent: String) -> ParsedUserAgent.Product { withSubject(agent, browser) }

    /// The operating system alone (`os_parsers`).
    public func os(_ agent: String) -> ParsedUserAgent.Product { withSubject(agent, os) }

    /// The device alone (`device_parsers`).
    public func device(_ agent: String) -> ParsedUserAgent.Device { withSubject(agent, device) }

    /// An agent prepared once for every regex: its UTF-16 length (NSRegularExpression's unit) and its
    /// lower-cased UTF-8 for the prefilters.
    private struct Subject {
        let text: String
        let length: Int
        let lowered: UnsafeBufferPointer<UInt8>

        func first(in rules: [UserAgentRule]) -> (rule: UserAgentRule, groups: [Substring?])? {
            for rule in rules {
                if let groups = rule.match(text, length: length, lowered: lowered) { return (rule, groups) }
            }
            return nil
        }
    }

    private func withSubject<T>(_ agent: String, _ body: (Subject) -> T) -> T {
        var lowered = Array(agent.utf8)
        for index in lowered.indices where lowered[index] >= UInt8(ascii: "A") && lowered[index] <= UInt8(ascii: "Z") {
            lowered[index] += 32
        }
        return lowered.withUnsafeBufferPointer { body(Subject(text: agent, length: agent.utf16.count, lowered: $0)) }
    }

    private func browser(_ subject: Subject) -> ParsedUserAgent.Product { product(subject, in: browsers) }

    private func os(_ subject: Subject) -> ParsedUserAgent.Product { product(subject, in: systems) }

    /// The family and version of the first of `rules` that matches (browsers and systems read alike).
    private func product(_ subject: Subject, in rules: [UserAgentRule]) -> ParsedUserAgent.Product {
        guard let (rule, groups) = subject.first(in: rules) else { return .other }
        return ParsedUserAgent.Product(
            family: rule.value(0, group: 1, of: groups) ?? ParsedUserAgent.other, major: rule.value(1, group: 2, of: groups),
            minor: rule.value(2, group: 3, of: groups), patch: rule.value(3, group: 4, of: groups),
            patchMinor: rule.value(4, group: 5, of: groups))
    }

    private func device(_ subject: Subject) -> ParsedUserAgent.Device {
        guard let (rule, groups) = subject.first(in: devices) else { return .other }
        return ParsedUserAgent.Device(
            family: rule.value(0, group: 1, of: groups) ?? ParsedUserAgent.other, brand: rule.value(1, group: nil, of: groups),
            model: rule.value(2, group: 1, of: groups))
    }
}
