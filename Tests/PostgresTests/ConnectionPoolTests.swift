import Foundation
import Observability
import Postgres
import Synchronization
import Testing
import TestSupport

/// Takes a connection of `pool` on a new thread and holds it until the returned semaphore is signalled; returns
/// once the connection is taken.
func holdingAConnection(of pool: ConnectionPool) -> DispatchSemaphore {
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    Thread {
        try? pool.withConnection { _ in
            holding.signal()
            release.wait()
        }
    }.start()
    holding.wait()
    return release
}

/// Runs `body(index)` on `count` new threads at once and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let done = DispatchSemaphore(value: 0)
    for index in 0..<count {
        Thread {
            body(index)
            done.signal()
        }.start()
    }
    for _ in 0..<count { done.wait() }
}

func testLogger() -> Logger { Logger(label: "linkd.tests", level: .warning, sink: .discard) }

/// Waits until the server no longer lists backend `pid`.
func waitUntilBackendGone(_ pid: Int32, admin: Connection) throws {
    try waitUntil("backend \(pid) to end") {
        try admin.query("SELECT count(*) FROM pg_stat_activity WHERE pid = \(pid)")[0].decode(0, as: Int.self) == 0
    }
}

@Suite struct ConnectionPoolTests {
    let database: TestDatabase

    init() throws {
        database = try TestDatabase.create()
    }

    /// A borrow nested in another on the same thread (a write that installs what it changed) uses the turn the
    /// thread holds: with one turn it would otherwise wait for itself and be refused.
    @Test func aNestedBorrowUsesTheTurnItsThreadHolds() throws {
        let pool = ConnectionPool(parameters: database.parameters, maxConnections: 4, acquireTimeout: .seconds(30), logger: testLogger())
        defer { pool.shutdown() }
        let bounded = pool.bounded(BoundedWaits(timeout: .seconds(2), maxBorrowers: 1))
        let inner = try bounded.withConnection { _ in
            try bounded.withConnection { try $0.query("SELECT 7")[0].decode(0, as: Int.self) }
        }
        #expect(inner == 7)
        // The turn is free again, for this thread and for another.
        #expect(try bounded.withConnection { try $0.query("SELECT 1")[0].decode(0, as: Int.self) } == 1)
        let other = Mutex<Int?>(nil)
        onThreads(1) { _ in other.withLock { $0 = try? bounded.withConnection { try $0.query("SELECT 2")[0].decode(0, as: Int.self) } } }
        #expect(other.withLock { $0 } == 2)
    }

    @Test func manyThreadsShareABoundedPool() throws {
        let pool = ConnectionPool(parameters: database.parameters, maxConnections: 4, acquireTimeout: .seconds(30), logger: testLogger())
        defer { pool.shutdown() }
        let lent = Mutex<Set<ObjectIdentifier>>([])
        let doubleLends = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        let maxInUse = Atomic<Int>(0)
        onThreads(16) { thread in
            for iteration in 0..<200 {
                do {
                    let value = try pool.withConnection { connection -> Int in
                        let id = ObjectIdentifier(connection)
                        let inserted = lent.withLock { $0.insert(id).inserted }
                        if !inserted { doubleLends.add(1, ordering: .relaxed) }
                        defer { lent.withLock { _ = $0.remove(id) } }
                        maxInUse.max(pool.statistics.inUse, ordering: .relaxed)
                        return try connection.query("SELECT \(thread * 1000 + iteration)::int8 + 0")[0].decode(0, as: Int.self)
                    }
                    if value != thread * 1000 + iteration { failures.add(1, ordering: .relaxed) }
                } catch {
                    failures.add(1, ordering: .relaxed)
                }
            }
        }
        let statistics = pool.statistics
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(doubleLends.load(ordering: .relaxed) == 0)
        #expect(maxInUse.load(ordering: .relaxed) <= 4)
        #expect(statistics.connectionsCreatedTotal <= 4)
        #expect(statistics.waitsTotal > 0)
        #expect(statistics.timeoutsTotal == 0)
        #expect(statistics.inUse == 0)
        #expect(statistics.idle == statistics.connectionsCreatedTotal)
    }

    @Test func acquireTimesOutWhenExhausted() throws {
        let pool = ConnectionPool(
            parameters: database.parameters, maxConnections: 1, acquireTimeout: .milliseconds(150), logger: testLogger())
        defer { pool.shutdown() }
        let release = holdingAConnection(of: pool)
        let started = ContinuousClock.now
        #expect {
            try pool.withConnection { _ in }
        } throws: { ($0 as? PostgresError)?.code == .poolTimeout }
        #expect(ContinuousClock.now - started >= .milliseconds(140))
        release.signal()
        try pool.withConnection { try $0.execute("SELECT 1") } // free again
        #expect(pool.statistics.timeoutsTotal == 1)
        #expect(pool.statistics.waitsTotal >= 1)
    }

    @Test func shutdownRefusesLaterAcquiresAndIsIdempotent() throws {
        let pool = ConnectionPool(parameters: database.parameters, maxConnections: 2, logger: testLogger())
        try pool.withConnection { try $0.execute("SELECT 1") }
        #expect(pool.statistics.idle == 1)
        pool.shutdown()
        pool.shutdown()
        #expect(pool.statistics.idle == 0)
        #expect {
            try pool.withConnection { _ in }
        } throws: { ($0 as? PostgresError)?.code == .poolClosed }
    }

    @Test func replacesAConnectionWhoseBackendWasTerminated() throws {
        let pool = ConnectionPool(parameters: database.parameters, maxConnections: 1, logger: testLogger())
        defer { pool.shutdown() }
        let admin = try Connection(database.parameters)
        let first = try pool.withConnection { $0.backendPID }
        let terminated = try admin.query("SELECT pg_terminate_backend(\(first))")[0].decode(0, as: Bool.self)
        #expect(terminated)
        try waitUntilBackendGone(first, admin: admin)
        // The idle connection is found dead when lent, and replaced without the borrower noticing.
        let second = try pool.withConnection { connection -> Int32 in
            try connection.execute("SELECT 1")
            return connection.backendPID
        }
        #expect(second != first)
        #expect(pool.statistics.connectionsCreatedTotal == 2)
        #expect(pool.statistics.connectionsDiscardedTotal == 1)
    }

    @Test func discardsAConnectionThatBrokeDuringUse() throws {
        let pool = ConnectionPool(parameters: database.parameters, maxConnections: 1, logger: testLogger())
        defer { pool.shutdown() }
        let admin = try Connection(database.parameters)
        #expect {
            try pool.withConnection { connection in
                let pid = connection.backendPID
                try admin.execute("SELECT pg_terminate_backend(\(pid))")
                try waitUntilBackendGone(pid, admin: admin)
                try connection.execute("SELECT 1")
            }
        } throws: { error in
            let error = error as? PostgresError
            return error?.code == .connectionLost
        }
        #expect(try pool.withConnection { try $0.query("SELECT 1")[0].decode(0, as: Int.self) } == 1)
        #expect(pool.statistics.inUse == 0)
    }

    struct Boom: Error {}

    @Test func transactionCommitsOrRollsBackOnAnyError() throws {
        let pool = ConnectionPool(parameters: database.parameters, maxConnections: 1, logger: testLogger())
        defer { pool.shutdown() }
        try pool.withConnection { try $0.executeScript("CREATE TABLE ledger (id int PRIMARY KEY, note text NOT NULL)") }

        try pool.withTransaction { try $0.execute("INSERT INTO ledger VALUES (1, 'kept')") }
        #expect(throws: Boom.self) {
            try pool.withTransaction { connection in
                try connection.execute("INSERT INTO ledger VALUES (2, 'swift error')")
                throw Boom()
            }
        }
        #expect {
            try pool.withTransaction { connection in
                try connection.execute("INSERT INTO ledger VALUES (3, 'sql error')")
                try connection.execute("INSERT INTO ledger VALUES (1, 'duplicate')")
            }
        } throws: { ($0 as? PostgresError)?.sqlState == .uniqueViolation }
        // A transaction left open by withConnection is rolled back when the connection comes back.
        try pool.withConnection { connection in
            try connection.executeScript("BEGIN")
            try connection.execute("INSERT INTO ledger VALUES (4, 'left open')")
        }
        let ids = try pool.withConnection { connection in
            try connection.query("SELECT id FROM ledger ORDER BY id").map { try $0.decode(0, as: Int.self) }
        }
        #expect(ids == [1])
        #expect(pool.statistics.connectionsCreatedTotal == 1) // the same connection survived every failure
    }
}
