import Dispatch
import Foundation
import Observability
import Postgres
import Synchronization

/// The background association checks (docs/HEALTH.md, "Checks"): every domain is checked once per `interval`,
/// at a stable slot of its own in the interval (`AssociationCheckStore.schedule`), so the domains are spread
/// evenly and never checked in a burst; a node claims the due domains (`claimDue`, `FOR UPDATE SKIP LOCKED`),
/// so with several nodes each domain is still checked once per interval. At most `inFlight` domains are checked
/// at once, each with its requests in parallel within the checker's bound (`OutboundFanOut`). An interval of zero
/// turns the background checks off (on demand checks still run).
final class HealthChecks: SingleThreadService {
    let name = "association checks"

    private let checker: HealthChecker
    private let counts: CheckCounts
    private let interval: Int
    private let inFlight: Int
    private let logger: Logger
    let thread = ServiceThread(name: "linkd.checks")
    /// When new domains were last given their slot (read and written by the thread only).
    private let scheduledAt = Mutex<ContinuousClock.Instant?>(nil)
    /// Domains checked, and checks that could not run at all (not loaded, database), for `/metrics`.
    private let checked: Counter
    private let skipped: Counter

    /// - Parameters:
    ///   - interval: seconds between two checks of a domain; 0: no background checks.
    ///   - inFlight: domains checked at once.
    init(checker: HealthChecker, counts: CheckCounts, interval: Int, inFlight: Int = 4, metrics: MetricsRegistry, logger: Logger) {
        self.checker = checker
        self.counts = counts
        self.interval = interval
        self.inFlight = max(1, inFlight)
        self.logger = logger
        checked = metrics.counter(
            "linkd_association_checks_total", help: "Background association checks of a domain, by outcome.",
            labels: ["outcome": "checked"])
        skipped = metrics.counter(
            "linkd_association_checks_total", help: "Background association checks of a domain, by outcome.",
            labels: ["outcome": "skipped"])
    }

    var isHealthy: Bool { interval == 0 || thread.isRunning }

    func start() {
        guard interval > 0 else { return }
        // Waking for the next scheduling too, at most this long apart.
        let scheduling = Duration.seconds(min(60, interval))
        thread.startPasses(
            retry: .milliseconds(Int(min(.seconds(30), scheduling).inSeconds * 1000)), logger: logger,
            failure: "association checks: cannot read the schedule"
        ) { [self] in
            // New domains get their slot within a minute (or the interval, when shorter).
            if scheduledAt.withLock({ $0.map { ContinuousClock.now - $0 >= scheduling } ?? true }) {
                try checker.pool.withConnection { try AssociationCheckStore.schedule(interval: interval, on: $0) }
                scheduledAt.withLock { $0 = .now }
            }
            let pause = min(try pass(), scheduling)
            return .milliseconds(Int(pause.inSeconds * 1000))
        }
    }

    /// Claims the due domains (up to `inFlight`) and checks them; answers how long to wait for the next pass: none
    /// when as many were due as were claimed, else until the next is due (from 1 s to a minute).
    private func pass() throws -> Duration {
        let claimed = try checker.pool.withConnection { try AssociationCheckStore.claimDue(limit: inFlight, interval: interval, on: $0) }
        if !claimed.isEmpty {
            let domains = try checker.pool.withConnection { try DomainStore.all(hostnames: claimed.map(\.hostname), on: $0) }
            // One worker per domain claimed (at most `inFlight`); their requests share the checker's fan-out.
            _ = OutboundFanOut.map(domains.count, workers: inFlight) { [self] index in
                do {
                    try checker.check(domains[index])
                    checked.increment()
                } catch {
                    skipped.increment()
                    logger.warning("association check did not run", metadata: ["domain": domains[index].hostname, "error": "\(error)"])
                }
            }
        }
        try counts.refresh { try checker.pool.withConnection { try AssociationCheckStore.domainCounts(on: $0) } }
        if claimed.count == inFlight { return .zero }
        let next = try checker.pool.withConnection { try AssociationCheckStore.nextDue(on: $0) }
        let wait = next.map { $0.timeIntervalSinceNow } ?? 60
        return .milliseconds(Int(min(60, max(1, wait)) * 1000))
    }
}
