import Dispatch
import Foundation
import Observability
import Postgres
import Synchronization

/// Asks the database whether it answers and its migrations are current (`/readyz`) without letting a stalled
/// database hold a request thread.
///
/// One check runs at a time, on a thread of its own; a caller waits for it at most `patience` and then answers
/// with what it knows. A check that outlasts that (a database that accepts connections and never answers, such
/// as a stopped postmaster) keeps its thread, and callers meanwhile answer at once that the database has not
/// answered since the check began; the next check starts when it returns.
final class DatabaseProbe: Sendable {
    enum Outcome: Sendable {
        /// The database answered with this migration status.
        case answered(Migrator.Status)
        /// The check failed (the database is unreachable, or the query was refused).
        case failed(any Error)
        /// The check has been running for this long without an answer.
        case stalled(Duration)
    }

    private final class Check: Sendable {
        let started = ContinuousClock.now
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Outcome?>(nil)
    }

    private let pool: ConnectionPool
    private let migrator: Migrator
    /// How long a caller waits for a check.
    let patience: Duration
    private let running = Mutex<Check?>(nil)

    init(pool: ConnectionPool, migrator: Migrator, patience: Duration = .seconds(1)) {
        self.pool = pool
        self.migrator = migrator
        self.patience = patience
    }

    /// The outcome of a check that started now, or of the one in flight; within `patience`.
    func check() -> Outcome {
        let (check, isNew) = running.withLock { running -> (Check, Bool) in
            if let check = running { return (check, false) }
            let check = Check()
            running = check
            return (check, true)
        }
        if isNew {
            let thread = Thread { [self] in run(check) }
            thread.name = "linkd.readiness"
            thread.start()
        }
        let remaining = patience - (ContinuousClock.now - check.started)
        guard remaining > .zero, check.done.wait(timeout: .now() + remaining.inSeconds) == .success else {
            return .stalled(ContinuousClock.now - check.started)
        }
        check.done.signal()  // for the next caller waiting on the same check
        return check.outcome.withLock { $0 } ?? .stalled(ContinuousClock.now - check.started)
    }

    private func run(_ check: Check) {
        let outcome: Outcome
        do {
            outcome = .answered(try migrator.status(using: pool))
        } catch {
            outcome = .failed(error)
        }
        check.outcome.withLock { $0 = outcome }
        running.withLock { running in
            if running === check { running = nil }
        }
        check.done.signal()
    }
}
