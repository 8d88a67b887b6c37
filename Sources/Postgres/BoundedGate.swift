import Dispatch
import Foundation
import Observability
import Synchronization

/// The turns and the stall state of a bounded pool view (`BoundedWaits` says what they do).
final class BoundedGate: Sendable {
    private struct State: Sendable {
        /// When each borrower inside took its turn, by ticket.
        var inside: [UInt64: ContinuousClock.Instant] = [:]
        var nextTicket: UInt64 = 0
        /// The threads holding a turn, with how deeply they borrow: a borrow nested in another on the same thread
        /// (a write that installs what it changed) uses the turn it already holds.
        var holders: [pthread_t: Int] = [:]
        var stalled = false
        var refusedTotal = 0
        /// The pool was shut down: the stall watcher ends at once.
        var closed = false
        /// A stall watcher's thread runs.
        var watching = false
    }

    let limits: BoundedWaits
    private let parameters: ConnectionParameters
    private let logger: Logger
    private let turns: DispatchSemaphore
    private let state = Mutex(State())
    /// What the stall watcher waits on between its checks: signalled by `shutdown()`, never polled.
    private let closing = DispatchSemaphore(value: 0)

    init(limits: BoundedWaits, parameters: ConnectionParameters, logger: Logger) {
        self.limits = limits
        self.parameters = parameters
        self.logger = logger
        turns = DispatchSemaphore(value: limits.maxBorrowers)
    }

    var refusedTotal: Int { state.withLock { $0.refusedTotal } }
    var isStalled: Bool { state.withLock { $0.stalled } }
    /// Whether a stall watcher's thread runs now.
    var isWatching: Bool { state.withLock { $0.watching } }

    /// Takes a turn, or refuses: `.mustNotWait` on a thread `limits.mayWait` refuses, `.stalled` while the database is taken as stalled, `.poolTimeout` when no turn
    /// is free within `turnPatience` (at once when a borrower inside is slow).
    /// A thread that already holds a turn borrows again within it (ticket 0): waiting for a second turn could
    /// only wait for itself when every turn is taken.
    /// - Returns: the ticket to hand back to `leave(_:)`.
    func enter() throws(PostgresError) -> UInt64 {
        if let mayWait = limits.mayWait, !mayWait() {
            throw PostgresError(.mustNotWait, serverMessage: "this thread does not wait on the database")
        }
        let now = ContinuousClock.now
        let patience = limits.turnPatience
        let me = pthread_self()
        let slow = try state.withLock { state throws(PostgresError) -> Bool? in
            if state.stalled {
                state.refusedTotal += 1
                throw PostgresError(.stalled, serverMessage: "the database has not answered since a wait timed out")
            }
            if let depth = state.holders[me] {
                state.holders[me] = depth + 1
                return nil
            }
            return state.inside.values.contains { now - $0 > patience }
        }
        guard let slow else { return 0 }
        let wait = slow ? Duration.zero : patience
        let nanoseconds = wait.components.seconds * 1_000_000_000 + wait.components.attoseconds / 1_000_000_000
        guard turns.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else {
            state.withLock { $0.refusedTotal += 1 }
            throw PostgresError(.poolTimeout, serverMessage: "\(limits.maxBorrowers) borrowers already wait on the database")
        }
        return state.withLock { state in
            state.nextTicket &+= 1
            state.inside[state.nextTicket] = .now
            state.holders[me] = 1
            return state.nextTicket
        }
    }

    /// Gives the turn of `ticket` back (a nested borrow's, 0, only ends the nesting).
    func leave(_ ticket: UInt64) {
        let me = pthread_self()
        state.withLock { state in
            let depth = state.holders[me] ?? 1
            state.holders[me] = depth > 1 ? depth - 1 : nil
            if ticket != 0 { _ = state.inside.removeValue(forKey: ticket) }
        }
        if ticket != 0 { turns.signal() }
    }

    /// A wait for the database timed out (`error`): refuse every borrower until it answers again, which a
    /// thread of its own checks (on a connection of its own, within the same limits).
    func stalled(by error: PostgresError) {
        let first = state.withLock { state -> Bool in
            let first = !state.stalled && !state.closed
            state.stalled = true
            state.watching = state.watching || first
            return first
        }
        guard first else { return }
        logger.warning("database not answering: refusing bounded waits until it answers", metadata: ["error": "\(error)"])
        let thread = Thread { [self] in watchUntilAnswering() }
        thread.name = "linkd.db.stalled"
        thread.start()
    }

    /// The pool shuts down: a stall watcher stops at once, without another check.
    func shutdown() {
        let watching = state.withLock { state -> Bool in
            defer { state.closed = true }
            return state.stalled && !state.closed
        }
        if watching { closing.signal() }
    }

    /// The stall watcher's loop: waits `retryInterval` (or until `shutdown()`), checks, and ends once the database
    /// answers or the pool closes.
    private func watchUntilAnswering() {
        while true {
            if closing.wait(timeout: .now() + limits.retryInterval.inSeconds) == .success {
                state.withLock { $0.watching = false }
                return
            }
            do {
                let connection = try Connection(parameters, timeout: limits.timeout)
                connection.statementTimeout = limits.timeout
                try connection.executeScript("SELECT 1")
            } catch  where error.code == .timedOut {
                continue
            } catch {
                // Any other answer (a refused connection, a server shutting down) is no stall: borrowers get
                // that answer themselves, at once.
            }
            break
        }
        let closed = state.withLock { state -> Bool in
            state.stalled = false
            state.watching = false
            return state.closed
        }
        // A shutdown that came while the last check ran signalled for a watcher that no longer waits.
        if closed { _ = closing.wait(timeout: .now()) }
        logger.info("database answering again")
    }
}
