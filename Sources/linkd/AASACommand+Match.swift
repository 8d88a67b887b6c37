import Foundation
import LinkKit

extension AASACommand {
    /// `linkd aasa match FILE URL [--app APPID] [--json]`.
    static func match(_ arguments: Arguments) throws -> Int32 {
        guard arguments.positionals.count == 2 else {
            throw Arguments.UsageError(description: "usage: linkd aasa match FILE URL [--app APPID] [--json]")
        }
        let data = try readInput(arguments.positionals[0])
        let file = try AASAFile.decode(String(decoding: data, as: UTF8.self))
        let url = try AASAURL(arguments.positionals[1])
        let matcher = AASAMatcher(file)
        let resolution = matcher.resolve(url)
        let apps = arguments.value("app").map { [$0] } ?? matcher.appIDs
        if arguments.has("json") {
            var members: [JSONMember] = [JSONMember(key: "url", value: .string(arguments.positionals[1]))]
            if let app = arguments.value("app") {
                let decision = matcher.decision(for: url, appID: app)
                members += decisionMembers(decision)
            } else {
                members.append(JSONMember(key: "appID", value: resolution.appID.map(JSONValue.string) ?? .null))
                members.append(JSONMember(key: "detailIndex", value: resolution.detailIndex.map(JSONValue.integer) ?? .null))
                members.append(JSONMember(key: "componentIndex", value: resolution.componentIndex.map(JSONValue.integer) ?? .null))
                members.append(JSONMember(key: "apps", value: .array(resolution.decisions.map { .object(decisionMembers($0)) })))
            }
            members.append(
                JSONMember(
                    key: "trace",
                    value: .array(
                        apps.flatMap { app in
                            matcher.trace(for: url, appID: app).map { step in
                                JSONValue.object([
                                    "appID": .string(app), "pointer": .string(step.rule.pointer), "rule": .string(step.rule.summary),
                                    "matched": .bool(step.matched),
                                ])
                            }
                        })))
            Output.out(JSONValue.object(members).serialized)
            return ExitStatus.success
        }
        var text = "URL: \(arguments.positionals[1])\n"
        if let app = arguments.value("app") {
            let decision = matcher.decision(for: url, appID: app)
            text += "\(app): \(describe(decision))\n"
        } else if let appID = resolution.appID, let rule = resolution.decision?.rule {
            text += "Opens \(appID) through \(rule.pointer): \(rule.summary)\n"
        } else if let rule = resolution.decision?.rule {
            text += "No app opens it: blocked by \(rule.pointer): \(rule.summary)\n"
        } else {
            text += "No app opens it: no rule matches\n"
        }
        // Apps listed in the same entries walk the same rules: one trace for them all.
        var traces: [(apps: [String], steps: [RuleEvaluation])] = []
        for app in apps {
            let steps = matcher.trace(for: url, appID: app)
            if let last = traces.indices.last, traces[last].steps == steps, !steps.isEmpty {
                traces[last].apps.append(app)
            } else {
                traces.append(([app], steps))
            }
        }
        for (apps, steps) in traces {
            text += "\nRules tried for \(apps.joined(separator: ", ")):\n"
            if steps.isEmpty { text += "  (none)\n" }
            for step in steps {
                let verdict = step.matched ? (step.rule.isExclusion ? "MATCH → exclude" : "MATCH") : "no"
                text += "  \(verdict.padding(toLength: 15, withPad: " ", startingAt: 0)) \(step.rule.pointer)  \(step.rule.summary)\n"
            }
        }
        Output.out(text)
        return ExitStatus.success
    }

    private static func decisionMembers(_ decision: AppDecision) -> [JSONMember] {
        [
            JSONMember(key: "appID", value: .string(decision.appID)),
            JSONMember(key: "decision", value: .string(decision.outcome.rawValue)),
            JSONMember(key: "detailIndex", value: decision.detailIndex.map(JSONValue.integer) ?? .null),
            JSONMember(key: "componentIndex", value: decision.componentIndex.map(JSONValue.integer) ?? .null),
        ]
    }

    private static func describe(_ decision: AppDecision) -> String {
        guard let rule = decision.rule else { return "no_match (no rule matches)" }
        return "\(decision.outcome.rawValue) through \(rule.pointer): \(rule.summary)"
    }
}
