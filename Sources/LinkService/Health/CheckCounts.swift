import Foundation
import Observability
import Synchronization

/// How many domains are in each state of each check, as last read from `association_checks`, for `/metrics`
/// (`linkd_association_check_domains{check, state}`): read again after each background pass and each check on
/// demand (the background's at most every `minimumAge`), never at scrape time, so `/metrics` never waits on the database.
final class CheckCounts: Sendable {
    private let counts = Mutex<(values: [String: Int], readAt: ContinuousClock.Instant?)>(([:], nil))
    private let minimumAge: Duration

    init(minimumAge: Duration = .seconds(10)) {
        self.minimumAge = minimumAge
    }

    func register(in metrics: MetricsRegistry) {
        metrics.gauge(
            "linkd_association_check_domains",
            help: "Domains by association check (origin, apple_cdn, google) and state, as last read."
        ) { [self] in
            let values = counts.withLock { $0.values }
            return CheckKind.allCases.flatMap { kind in
                CheckState.allCases.map { state in
                    (["check": kind.rawValue, "state": state.rawValue], Double(values[kind.rawValue + " " + state.rawValue] ?? 0))
                }
            }
        }
    }

    /// Reads the counts with `read` unless they were read less than `minimumAge` ago (`force`: read anyway).
    func refresh(force: Bool = false, _ read: () throws -> [(kind: CheckKind, state: CheckState, domains: Int)]) rethrows {
        let now = ContinuousClock.now
        if !force, let readAt = counts.withLock({ $0.readAt }), now - readAt < minimumAge { return }
        let rows = try read()
        let values = Dictionary(rows.map { ($0.kind.rawValue + " " + $0.state.rawValue, $0.domains) }, uniquingKeysWith: +)
        counts.withLock { $0 = (values, now) }
    }
}
