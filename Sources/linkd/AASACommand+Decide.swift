import LinkKit

extension AASACommand {
    /// `linkd aasa decide`: one JSON line out per JSON line in, flushed at once (drivers may wait for each answer).
    static func decide(_ arguments: Arguments) throws -> Int32 {
        guard arguments.positionals.isEmpty else { throw Arguments.UsageError(description: "decide reads stdin and takes no arguments") }
        var cache = MatcherCache()
        while let line = readLine(strippingNewline: true) {
            if line.allSatisfy(\.isWhitespace) { continue }
            Output.out(decideLine(line, cache: &cache).serialized)
        }
        return ExitStatus.success
    }

    /// The answer to one input line.
    static func decideLine(_ line: String, cache: inout MatcherCache) -> JSONValue {
        let input: JSONValue
        do {
            input = try JSONValue.parse(line)
        } catch {
            return .object(["id": .null, "error": .string(error.description)])
        }
        let id = input["id"] ?? .null
        do {
            return try answer(input, id: id, cache: &cache)
        } catch {
            let message = (error as? LinkKitError)?.description ?? "\(error)"
            return .object(["id": id, "error": .string(message)])
        }
    }

    private static func answer(_ input: JSONValue, id: JSONValue, cache: inout MatcherCache) throws -> JSONValue {
        guard case .object = input else { throw DecideError("the line is not a JSON object") }
        guard let aasa = input["aasa"] else { throw DecideError("'aasa' is missing") }
        guard let domain = input["domain"]?.stringValue else { throw DecideError("'domain' must be a string") }
        guard let appID = (input["appId"] ?? input["appID"])?.stringValue else { throw DecideError("'appId' must be a string") }
        guard let urlText = input["url"]?.stringValue else { throw DecideError("'url' must be a string") }
        let url = try AASAURL(urlText)
        let matcher = try cache.matcher(for: aasa)
        // The file only governs URLs on the host that serves it; a URL elsewhere is not its business.
        var decision = AppDecision(appID: appID, outcome: .noMatch, rule: nil)
        if Hostname.host(url.host, isServedBy: domain) {
            decision = matcher.decision(for: url, appID: appID)
        }
        return decisionLine(id: id, decision: decision)
    }

    private static func decisionLine(id: JSONValue, decision: AppDecision) -> JSONValue {
        var members = [JSONMember(key: "id", value: id), JSONMember(key: "decision", value: .string(decision.outcome.rawValue))]
        if let rule = decision.rule {
            members.append(JSONMember(key: "detailIndex", value: .integer(rule.detailIndex)))
            members.append(JSONMember(key: "componentIndex", value: .integer(rule.componentIndex)))
        } else {
            members.append(JSONMember(key: "detailIndex", value: .null))
            members.append(JSONMember(key: "componentIndex", value: .null))
        }
        return .object(members)
    }

    /// The last file compiled: suites often send many URLs for one file in a row.
    struct MatcherCache {
        private var aasa: JSONValue?
        private var compiled: AASAMatcher?

        mutating func matcher(for aasa: JSONValue) throws -> AASAMatcher {
            if let compiled, self.aasa == aasa { return compiled }
            let matcher = AASAMatcher(try AASAFile(json: aasa))
            self.aasa = aasa
            compiled = matcher
            return matcher
        }
    }

    struct DecideError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
