import LinkKit

extension AASACommand {
    /// `linkd aasa decide`: one JSON line out per JSON line in, flushed at once (drivers may wait for each answer).
    static func decide(_ arguments: Arguments) throws -> Int32 {
        guard arguments.positionals.isEmpty else { throw Arguments.UsageError(description: "decide reads stdin and takes no arguments") }
        var cache: (aasa: JSONValue, matcher: AASAMatcher)?
        while let line = readLine(strippingNewline: true) {
            if line.allSatisfy(\.isWhitespace) { continue }
            Output.out(decideLine(line, cache: &cache).serialized)
        }
        return ExitStatus.success
    }

    /// The answer to one input line.
    static func decideLine(_ line: String, cache: inout (aasa: JSONValue, matcher: AASAMatcher)?) -> JSONValue {
        var id = JSONValue.null
        do {
            let input = try JSONValue.parse(line)
            guard case .object = input else { throw DecideError("the line is not a JSON object") }
            id = input["id"] ?? .null
            guard let aasa = input["aasa"] else { throw DecideError("'aasa' is missing") }
            guard let domain = input["domain"]?.stringValue else { throw DecideError("'domain' must be a string") }
            guard let appID = input["appId"]?.stringValue else { throw DecideError("'appId' must be a string") }
            guard let urlText = input["url"]?.stringValue else { throw DecideError("'url' must be a string") }
            let url = try AASAURL(urlText)
            let matcher: AASAMatcher
            if let cache, cache.aasa == aasa {
                matcher = cache.matcher
            } else {
                matcher = AASAMatcher(try AASAFile(json: aasa))
                cache = (aasa, matcher)
            }
            // The file only governs URLs on the host that serves it; a URL elsewhere is not its business.
            let decision = Hostname.host(url.host, isServedBy: domain)
                ? matcher.decision(for: url, appID: appID)
                : AppDecision(appID: appID, outcome: .noMatch, rule: nil)
            return .object([
                "id": id,
                "decision": .string(decision.outcome.rawValue),
                "detailIndex": decision.detailIndex.map(JSONValue.integer) ?? .null,
                "componentIndex": decision.componentIndex.map(JSONValue.integer) ?? .null,
            ])
        } catch let error as LinkKitError {
            return .object(["id": id, "error": .string(error.description)])
        } catch {
            return .object(["id": id, "error": .string("\(error)")])
        }
    }

    struct DecideError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
