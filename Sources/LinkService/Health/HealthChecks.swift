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
final class HealthChecks: BackgroundService {
    let name = "association checks"
    static let threads = 1

    private let checker: HealthChecker
    private let counts: CheckCounts
    private let interval: Int
    private let inFlight: Int
    private let logger: Logger
    private let thread = ServiceThread(name: "linkd.checks")
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
        thread.start { [self] in
            var scheduledAt: ContinuousClock.Instant?
            while true {
                let pause: Duration
                do {
                    // New domains get their slot within a minute (or the interval, when shorter).
                    if scheduledAt.map({ ContinuousClock.now - $0 >= .seconds(min(60, interval)) }) ?? true {
                        try checker.pool.withConnection { try AssociationCheckStore.schedule(interval: interval, on: $0) }
                        scheduledAt = .now
                    }
                    pause = try pass()
                } catch {
                    logger.warning("association checks: cannot read the schedule", metadata: ["error": "\(error)"])
                    pause = .seconds(30)
                }
                // Wake for the next scheduling too.
                let wait = min(pause, .seconds(min(60, interval)))
                if thread.sleep(until: .now() + .milliseconds(Int(wait.inSeconds * 1000))) { return }
            }
        }
    }

    func shutdown() {
        thread.stop()
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
