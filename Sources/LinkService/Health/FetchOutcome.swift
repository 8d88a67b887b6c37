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

    /// Fetches every request at once (each on a thread of its own: they wait on the network, not a core), allowed
    /// by `targets`, and answers their outcomes in order, a name that did not resolve diagnosed against the others
    /// (`linkHost`: the link domain's).
    static func all(_ requests: [OutboundRequest], client: HTTPClient, targets: OutboundTargets, linkHost: String) -> [FetchOutcome] {
        var outcomes = all(requests, client: client, targets: targets)
        for (index, diagnosis) in DNSDiagnosis.of(outcomes, linkHost: linkHost).enumerated() { outcomes[index].dns = diagnosis }
        return outcomes
    }

    private static func all(_ requests: [OutboundRequest], client: HTTPClient, targets: OutboundTargets) -> [FetchOutcome] {
        let outcomes = Outcomes(count: requests.count)
        let group = DispatchGroup()
        for (index, request) in requests.enumerated() {
            DispatchQueue.global().async(group: group) {
                let result = Result { () throws(OutboundFailure) in try client.fetch(request, allowedBy: targets) }
                outcomes.set(index, FetchOutcome(url: request.url, result: result))
            }
        }
        group.wait()
        return outcomes.all
    }

    private final class Outcomes: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [FetchOutcome?]
        init(count: Int) { values = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ value: FetchOutcome) { lock.withLock { values[index] = value } }
        var all: [FetchOutcome] { lock.withLock { values.compactMap { $0 } } }
    }
}
