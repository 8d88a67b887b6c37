import Dispatch
import Foundation
import Observability
import Synchronization

/// Counters and gauges of a `ConnectionPool`, for `/metrics`.
public struct PoolStatistics: Sendable, Equatable {
    /// Connections lent out right now (including ones being opened for a borrower).
    public var inUse: Int
    /// Open connections waiting in the pool.
    public var idle: Int
    /// The pool's bound.
    public var maxConnections: Int
    /// Acquires that found no free connection and had to wait.
    public var waitsTotal: Int
    /// Acquires that gave up after `acquireTimeout`.
    public var timeoutsTotal: Int
    /// Connections opened over the pool's life (replacements included).
    public var connectionsCreatedTotal: Int
    /// Connections thrown away because they broke.
    public var connectionsDiscardedTotal: Int
    /// A bounded view's borrowers refused without a connection: no turn free in time, or the database stalled.
    public var refusedTotal = 0
    /// Whether a bounded view found the database not answering and has not seen it answer since.
    public var stalled = false
}

/// A bounded pool of connections, lent to one borrower at a time.
///
/// Connections are opened on demand up to `maxConnections`; a borrower that finds none free waits (FIFO,
/// one `DispatchSemaphore` each) up to `acquireTimeout`. A connection that comes back broken, or is found
/// broken when taken from the pool, is closed and replaced by a new one on the next demand.
/// The state lives in one `Mutex`; opening, checking and closing connections happen outside the lock.
public final class ConnectionPool: Sendable {
    final class Waiter: Sendable {
        let semaphore = DispatchSemaphore(value: 0)
    }

    struct State: Sendable {
        var idle: [Connection] = []
        var inUse = 0
        var closed = false
        var waiters: [Waiter] = []
        var waitsTotal = 0
        var timeoutsTotal = 0
        var createdTotal = 0
        var discardedTotal = 0
    }

    private enum Step {
        case use(Connection)
        case create
        case wait(Waiter)
        case closed
    }

    /// What every view of one pool shares: the connections, their bound and the counters.
    final class Shared: Sendable {
        let parameters: ConnectionParameters
        let maxConnections: Int
        let logger: Logger
        let state = Mutex(State())
        /// The gates of the bounded views, which `shutdown()` closes too (their stall watchers end).
        let gates = Mutex<[BoundedGate]>([])

        init(parameters: ConnectionParameters, maxConnections: Int, logger: Logger) {
            self.parameters = parameters
            self.maxConnections = max(1, maxConnections)
            self.logger = logger
        }
    }

    private let shared: Shared
    private let acquireTimeout: Duration
    /// Set on a bounded view (`bounded(_:)`): its limits, borrowers and stall state.
    let gate: BoundedGate?
    private var parameters: ConnectionParameters { shared.parameters }
    private var maxConnections: Int { shared.maxConnections }
    private var logger: Logger { shared.logger }

    /// Creates a pool; no connection is opened until the first borrower asks.
    /// - Parameters:
    ///   - parameters: where to connect.
    ///   - maxConnections: the bound (at least 1).
    ///   - acquireTimeout: how long a borrower waits for a free connection before `.poolTimeout`.
    ///   - logger: receives connection failures and discards.
    public init(parameters: ConnectionParameters, maxConnections: Int = 10, acquireTimeout: Duration = .seconds(5), logger: Logger) {
        shared = Shared(parameters: parameters, maxConnections: maxConnections, logger: logger)
        self.acquireTimeout = acquireTimeout
        gate = nil
    }

    private init(shared: Shared, gate: BoundedGate) {
        self.shared = shared
        self.acquireTimeout = gate.limits.timeout
        self.gate = gate
    }

    /// A view of this pool for threads that must not wait long on the database (HTTP workers): the same
    /// connections and bound, with every wait limited as `limits` says (`BoundedWaits`).
    public func bounded(_ limits: BoundedWaits) -> ConnectionPool {
        let gate = BoundedGate(limits: limits, parameters: parameters, logger: logger)
        shared.gates.withLock { $0.append(gate) }
        return ConnectionPool(shared: shared, gate: gate)
    }

    /// Lends a connection to `body` and takes it back afterwards.
    ///
    /// `body` must not keep the connection. If it leaves a transaction open, it is rolled back; if the
    /// connection broke, it is discarded and a new one opened for the next borrower.
    /// - Throws: `PostgresError` `.poolTimeout`, `.poolClosed`, `.connectionFailed`, or whatever `body` throws.
    @discardableResult
    public func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        guard let gate else {
            let connection = try acquire()
            defer { release(connection) }
            return try body(connection)
        }
        let ticket = try gate.enter()
        defer { gate.leave(ticket) }
        do {
            let connection = try acquire()
            connection.statementTimeout = gate.limits.timeout
            defer { release(connection) }
            return try body(connection)
        } catch let error as PostgresError where error.code == .timedOut || error.code == .poolTimeout {
            gate.stalled(by: error)
            throw error
        }
    }

    /// Runs `body` inside `BEGIN` ... `COMMIT`; any error thrown by `body` (or by `COMMIT`) rolls back
    /// and is rethrown.
    /// - Throws: as `withConnection`, plus the `COMMIT` failure (e.g. `.serializationFailure`).
    @discardableResult
    public func withTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        try withConnection { connection in
            try connection.executeScript("BEGIN")
            let value: T
            do {
                value = try body(connection)
            } catch {
                try? connection.executeScript("ROLLBACK") // a broken connection is discarded on release anyway
                throw error
            }
            try connection.executeScript("COMMIT") // a failed COMMIT has already rolled back on the server
            return value
        }
    }

    /// A snapshot of the pool's counters.
    public var statistics: PoolStatistics {
        shared.state.withLock { state in
            PoolStatistics(
                inUse: state.inUse, idle: state.idle.count, maxConnections: maxConnections,
                waitsTotal: state.waitsTotal, timeoutsTotal: state.timeoutsTotal,
                connectionsCreatedTotal: state.createdTotal, connectionsDiscardedTotal: state.discardedTotal,
                refusedTotal: gate?.refusedTotal ?? 0, stalled: gate?.isStalled ?? false
            )
        }
    }

    /// Closes idle connections and refuses new borrowers (`.poolClosed`); connections still lent out are
    /// closed when they come back. Idempotent.
    public func shutdown() {
        let (idle, waiters) = shared.state.withLock { state -> ([Connection], [Waiter]) in
            state.closed = true
            defer { state.idle = []; state.waiters = [] }
            return (state.idle, state.waiters)
        }
        waiters.forEach { $0.semaphore.signal() }
        shared.gates.withLock { $0 }.forEach { $0.shutdown() }
        if !idle.isEmpty { logger.debug("pool closed", metadata: ["db.pool.closed": "\(idle.count)"]) }
        // `idle` goes out of scope here: PQfinish runs in each Connection.deinit, outside the lock.
    }

    // MARK: - Acquire and release

    private func acquire() throws(PostgresError) -> Connection {
        let deadline = ContinuousClock.now + acquireTimeout
        var waited = false
        while true {
            let step = shared.state.withLock { state -> Step in
                if state.closed { return .closed }
                if let connection = state.idle.popLast() {
                    state.inUse += 1
                    return .use(connection)
                }
                if state.inUse < maxConnections {
                    state.inUse += 1 // reserve the slot while the connection is being opened
                    return .create
                }
                let waiter = Waiter()
                state.waiters.append(waiter)
                if !waited { state.waitsTotal += 1 }
                return .wait(waiter)
            }
            switch step {
            case .closed:
                throw PostgresError(.poolClosed)
            case .use(let connection):
                connection.statementTimeout = gate.map { _ in max(.milliseconds(1), deadline - ContinuousClock.now) }
                if connection.checkAlive() { return connection }
                logger.info("discarding broken idle connection")
                discard(connection)
            case .create:
                do {
                    let connection = try Connection(parameters, timeout: gate.map { _ in max(.zero, deadline - ContinuousClock.now) })
                    shared.state.withLock { $0.createdTotal += 1 }
                    return connection
                } catch {
                    logger.warning("cannot connect to database", metadata: ["error": "\(error)"])
                    let waiter = shared.state.withLock { state -> Waiter? in
                        state.inUse -= 1
                        return state.waiters.isEmpty ? nil : state.waiters.removeFirst()
                    }
                    waiter?.semaphore.signal()
                    throw error
                }
            case .wait(let waiter):
                waited = true
                let remaining = deadline - ContinuousClock.now
                let nanoseconds = max(0, remaining.components.seconds * 1_000_000_000 + remaining.components.attoseconds / 1_000_000_000)
                if waiter.semaphore.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .timedOut {
                    let stillWaiting = shared.state.withLock { state -> Bool in
                        guard let index = state.waiters.firstIndex(where: { $0 === waiter }) else { return false }
                        state.waiters.remove(at: index)
                        state.timeoutsTotal += 1
                        return true
                    }
                    if stillWaiting { throw PostgresError(.poolTimeout) }
                    // Signalled just as the wait timed out: the signal is ours, take the turn it gives.
                    waiter.semaphore.wait()
                }
            }
        }
    }

    private func release(_ connection: Connection) {
        if connection.isInTransaction, connection.isConnected {
            try? connection.executeScript("ROLLBACK")
        }
        connection.statementTimeout = nil
        guard connection.isUsable else {
            logger.info("discarding broken connection")
            discard(connection)
            return
        }
        let waiter = shared.state.withLock { state -> Waiter? in
            state.inUse -= 1
            if state.closed { return nil }
            state.idle.append(connection)
            return state.waiters.isEmpty ? nil : state.waiters.removeFirst()
        }
        waiter?.semaphore.signal()
        // When closed, `connection` is not kept and closes when this frame releases it.
    }

    /// Gives up a connection's slot; the connection closes when the last reference goes.
    private func discard(_ connection: Connection) {
        let waiter = shared.state.withLock { state -> Waiter? in
            state.inUse -= 1
            state.discardedTotal += 1
            return state.waiters.isEmpty ? nil : state.waiters.removeFirst()
        }
        waiter?.semaphore.signal()
    }
}
