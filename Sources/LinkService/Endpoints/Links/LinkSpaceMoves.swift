import Foundation
import LinkKit

/// What a change of a domain's link space moves among the URLs its rules decide (docs/LINKS.md, "The link space").
/// The link space claims, after every rule, each path for one app a platform; a URL a rule keeps from the apps of a
/// platform can still move to that app where the platform cannot keep it: Android's intent filters cannot exclude
/// (with `androidDynamicRules`, Android 15+ keeps an exclusion and Android 14 and older do not), and iOS gives a URL
/// to the app whose entry decides it first.
///
/// Over the rules' example URLs (`RouterFixtures.examplePathsByRule`), each platform's decision under both
/// compilations, as resolve decides it (and, with dynamic rules, as the manifest alone decides on older Android),
/// for the platforms whose apps the rule names: one move per rule, platform and app moved to, with its first example.
struct LinkSpaceMoves {
    struct Move {
        /// The rule whose example moves, and its path pattern as the AASA file writes it.
        let position: Int
        let path: String
        let exclude: Bool
        let platform: AppPlatform
        /// The first example URL that moves.
        let url: String
        /// The app that opened it before; nil: none (the browser).
        let from: DomainApp?
        let to: DomainApp
        /// Only Android 14 and older (which ignore the dynamic rules) move; Android 15+ keeps the decision.
        let olderAndroidOnly: Bool
        /// Whether the domain serves dynamic rules.
        let dynamicRules: Bool

        /// One sentence saying what moves and why.
        var sentence: String {
            let rule = "the rule at position \(position), \(path)\(exclude ? ", an exclusion" : "")"
            let instead = from.map { "instead of \(LinkSpaceMoves.name($0))" } ?? "instead of the browser"
            let opens = "\(url) (\(rule)) would open \(LinkSpaceMoves.name(to)) \(instead)"
            switch platform {
            case .android where olderAndroidOnly:
                return
                    "\(opens) on Android 14 and older, whose intent filters cannot exclude; Android 15+ keeps the rule (androidDynamicRules)."
            case .android where dynamicRules:
                return "\(opens) on Android: the dynamic rules do not keep it either."
            case .android:
                return
                    "\(opens) on Android: Android intent filters cannot exclude. With androidDynamicRules, Android 15+ would keep the rule; older Android would not."
            case .ios:
                return "\(opens) on iOS: iOS gives a URL to the app whose entry of the file decides it first."
            }
        }

        var json: JSONValue {
            .object([
                JSONMember(key: "rule", value: .integer(position)),
                JSONMember(key: "path", value: .string(path)),
                JSONMember(key: "platform", value: .string(platform.rawValue)),
                JSONMember(key: "url", value: .string(url)),
                JSONMember(key: "from", value: from.map { .string($0.id) } ?? .null),
                JSONMember(key: "to", value: .string(to.id)),
                JSONMember(key: "olderAndroidOnly", value: .bool(olderAndroidOnly)),
            ])
        }
    }

    private(set) var moves: [Move] = []

    /// The moves from `before` to `after`, two compilations of one domain whose first `ruleCount` rules are its own
    /// rules and differ in the link space after them.
    init(from before: CompiledDomain, to after: CompiledDomain, ruleCount: Int, host: String) {
        let rules = after.rules
        let apps = Dictionary(after.apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let dynamic = after.settings.androidDynamicRules
        var seen: Set<String> = []
        for (position, path) in RouterFixtures.examplePathsByRule(after) where position < ruleCount {
            guard let url = try? AASAURL("https://" + host + path) else { continue }
            let rule = rules[position]
            for platform in [AppPlatform.ios, .android] where rule.apps.contains(where: { apps[$0]?.platform == platform }) {
                let was = before.resolve(url, platform: platform)
                let will = after.resolve(url, platform: platform)
                var move: (from: DomainApp?, to: DomainApp, older: Bool)?
                if will.outcome == .openApp, let to = will.app, was.outcome != .openApp || was.app?.id != to.id {
                    move = (was.outcome == .openApp ? was.app : nil, to, false)
                } else if platform == .android, dynamic, let will = after.android.decide(url, manifestOnly: true) {
                    let to = after.android.apps[will.app].app
                    let was = before.android.decide(url, manifestOnly: true).map { before.android.apps[$0.app].app }
                    if was?.id != to.id { move = (was, to, true) }
                }
                guard let move, seen.insert("\(position) \(platform.rawValue) \(move.to.id) \(move.older)").inserted else { continue }
                moves.append(
                    Move(
                        position: position, path: rule.component.path ?? "*", exclude: rule.exclude == true, platform: platform,
                        url: url.text, from: move.from, to: move.to, olderAndroidOnly: move.older, dynamicRules: dynamic))
            }
        }
    }

    var isEmpty: Bool { moves.isEmpty }

    /// An app as a person reads it: its name (else its identifier) and its platform.
    static func name(_ app: DomainApp) -> String {
        "\(app.name ?? app.identifier) (\(app.platform == .ios ? "iOS" : "Android"), \(app.identifier))"
    }
}
