import Foundation
import LinkKit
import Outbound

/// One outbound request of a check and what came of it: an answer, or the failure saying why there is none.
struct FetchOutcome: Sendable {
    let url: String
    let result: Result<OutboundResponse, OutboundFailure>
    /// For a name that did not resolve: which case it is and what to do (`DNSDiagnosis`).
    var dns: DNSDiagnosis?

    var response: OutboundResponse? {
        if case .success(let response) = result { response } else { nil }
    }

    var failure: OutboundFailure? {
        if case .failure(let failure) = result { failure } else { nil }
    }

    /// `{kind, message}` of the failure (with `cause` and `nextStep` for a name that did not resolve); nil when it
    /// was answered.
    var failureReason: JSONValue? {
        guard let failure else { return nil }
        guard let dns, case .object(let members) = Self.reason(failure.kind.rawValue, failure.message) else {
            return Self.reason(failure.kind.rawValue, failure.message)
        }
        return .object(members + dns.members)
    }

    /// `{kind, message}` of a failure.
    static func reason(_ kind: String, _ message: String) -> JSONValue {
        .object([JSONMember(key: "kind", value: .string(kind)), JSONMember(key: "message", value: .string(message))])
    }

    /// Fetches every request, together within `fanOut`'s bound (they wait on the network, not a core), allowed by
    /// `targets`, and answers their outcomes in order, a name that did not resolve diagnosed against the others
    /// (`linkHost`: the link domain's).
    static func all(
        _ requests: [OutboundRequest], client: HTTPClient, targets: OutboundTargets, linkHost: String,
        fanOut: OutboundFanOut
    ) -> [FetchOutcome] {
        var outcomes = fanOut.map(requests.count) { index in
            let request = requests[index]
            let result = Result { () throws(OutboundFailure) in try client.fetch(request, allowedBy: targets) }
            return FetchOutcome(url: request.url, result: result)
        }
        for (index, diagnosis) in DNSDiagnosis.of(outcomes, linkHost: linkHost).enumerated() { outcomes[index].dns = diagnosis }
        return outcomes
    }
}
