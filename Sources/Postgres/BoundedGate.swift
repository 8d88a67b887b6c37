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
        var stalled = false
        var refusedTotal = 0
    }

    let limits: BoundedWaits
    private let parameters: ConnectionParameters
    private let logger: Logger
    private let turns: DispatchSemaphore
    private let state = Mutex(State())

    init(limits: BoundedWaits, parameters: ConnectionParameters, logger: Logger) {
        self.limits = limits
        self.parameters = parameters
        self.logger = logger
        turns = DispatchSemaphore(value: limits.maxBorrowers)
    }

    var refusedTotal: Int { state.withLock { $0.refusedTotal } }
    var isStalled: Bool { state.withLock { $0.stalled } }

    /// Takes a turn, or refuses: `.stalled` while the database is taken as stalled, `.poolTimeout` when no turn
    /// is free within `turnPatience` (at once when a borrower inside is slow).
    /// - Returns: the ticket to hand back to `leave(_:)`.
    func enter() throws(PostgresError) -> UInt64 {
        let now = ContinuousClock.now
        let patience = limits.turnPatience
        let slow = try state.withLock { state throws(PostgresError) -> Bool in
            if state.stalled {
                state.refusedTotal += 1
                throw PostgresError(.stalled, serverMessage: "the database has not answered since a wait timed out")
            }
            return state.inside.values.contains { now - $0 > patience }
        }
        let wait = slow ? Duration.zero : patience
        let nanoseconds = wait.components.seconds * 1_000_000_000 + wait.components.attoseconds / 1_000_000_000
        guard turns.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else {
            state.withLock { $0.refusedTotal += 1 }
            throw PostgresError(.poolTimeout, serverMessage: "\(limits.maxBorrowers) borrowers already wait on the database")
        }
        return state.withLock { state in
            state.nextTicket &+= 1
            state.inside[state.nextTicket] = .now
            return state.nextTicket
        }
    }

    /// Gives the turn of `ticket` back.
    func leave(_ ticket: UInt64) {
        state.withLock { _ = $0.inside.removeValue(forKey: ticket) }
        turns.signal()
    }

    /// A wait for the database timed out (`error`): refuse every borrower until it answers again, which a
    /// thread of its own checks (on a connection of its own, within the same limits).
    func stalled(by error: PostgresError) {
        let first = state.withLock { state -> Bool in
            defer { state.stalled = true }
            return !state.stalled
        }
        guard first else { return }
        logger.warning("database not answering: refusing bounded waits until it answers", metadata: ["error": "\(error)"])
        let thread = Thread { [self] in watchUntilAnswering() }
        thread.name = "linkd.db.stalled"
        thread.start()
    }

    private func watchUntilAnswering() {
        while true {
            Thread.sleep(forTimeInterval: limits.retryInterval.inSeconds)
            do {
                let connection = try Connection(parameters, timeout: limits.timeout)
                connection.statementTimeout = limits.timeout
                try connection.executeScript("SELECT 1")
            } catch where error.code == .timedOut {
                continue
            } catch {
                // Any other answer (a refused connection, a server shutting down) is no stall: borrowers get
                // that answer themselves, at once.
            }
            break
        }
        state.withLock { $0.stalled = false }
        logger.info("database answering again")
    }
}
