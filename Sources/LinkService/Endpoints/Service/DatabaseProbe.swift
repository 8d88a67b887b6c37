import Dispatch
import Foundation
import Observability
import Postgres
import Synchronization

/// Asks the database whether it answers and its migrations are current (`/readyz`) on a thread of its own, so
/// that `/readyz` never waits on the database: it answers from the last check.
///
/// A check runs every `interval` (the next one starts when the last returns), through a bounded view of the pool,
/// so a check never waits longer than its limit. `outcome()` gives the last check's answer, or, once the check in
/// flight has run for `patience` without an answer or a check's wait ran out (a database that accepts connections
/// and never answers, such as a stopped postmaster), that the database has not answered since that check began.
/// `start()` makes the first check on the calling thread.
final class DatabaseProbe: Sendable {
    enum Outcome: Sendable {
        /// The database answered with this migration status.
        case answered(Migrator.Status)
        /// The check failed (the database is unreachable, or the query was refused).
        case failed(any Error)
        /// The check has been running for this long without an answer.
        case stalled(Duration)
    }

    private struct State: Sendable {
        var last: Outcome?
        /// When the check in flight began; nil between checks.
        var checking: ContinuousClock.Instant?
        /// When the first check the database has not answered since began (its wait ran out, or the pool found
        /// the database stalled); nil once one answers.
        var silentSince: ContinuousClock.Instant?
    }

    private let pool: ConnectionPool
    private let migrator: Migrator
    /// How long a check may run before the database is said not to answer.
    let patience: Duration
    /// The pause between checks.
    let interval: Duration
    private let state = Mutex(State())
    private let thread = ServiceThread(name: "linkd.readiness")

    /// - Parameter pool: the pool to check through (a bounded view of it: each check waits at most
    ///   `patience` twice over).
    init(pool: ConnectionPool, migrator: Migrator, patience: Duration = .seconds(1), interval: Duration = .milliseconds(500)) {
        self.pool = pool.bounded(BoundedWaits(timeout: patience * 2, maxBorrowers: 1))
        self.migrator = migrator
        self.patience = patience
        self.interval = interval
    }

    /// Makes the first check, then starts the thread that checks every `interval`.
    func start() {
        check()
        thread.start { [self] in
            while !thread.sleep(until: .now() + interval.inSeconds) { check() }
        }
    }

    /// Stops the checks (a check in flight is not waited for beyond its own end). Idempotent.
    func shutdown() {
        thread.stop()
    }

    /// What the last check found, or that the one in flight has not answered for `patience` or more; at once.
    func outcome() -> Outcome {
        let now = ContinuousClock.now
        return state.withLock { state in
            if let since = state.silentSince { return .stalled(now - since) }
            if let since = state.checking, now - since >= patience { return .stalled(now - since) }
            return state.last ?? .stalled(.zero)
        }
    }

    private func check() {
        let began = ContinuousClock.now
        state.withLock { $0.checking = began }
        let outcome: Outcome
        var silent = false
        do {
            outcome = .answered(try migrator.status(using: pool))
        } catch let error as PostgresError where error.code == .timedOut || error.code == .stalled {
            outcome = .failed(error)
            silent = true
        } catch {
            outcome = .failed(error)
        }
        state.withLock { state in
            state.last = outcome
            state.checking = nil
            state.silentSince = silent ? state.silentSince ?? began : nil
        }
    }
}
