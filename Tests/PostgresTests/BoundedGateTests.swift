import Foundation
@testable import Postgres
import Testing
import TestSupport

/// The stall watcher of a bounded view: it waits between its checks on a signal, not a sleep, so the pool's
/// shutdown ends it at once.
@Suite struct BoundedGateTests {
    let database: TestDatabase

    init() throws {
        database = try TestDatabase.create()
    }

    @Test func shutdownEndsTheStallWatcherAtOnce() throws {
        let pool = ConnectionPool(parameters: database.parameters, maxConnections: 1, logger: testLogger())
        // A watcher that would wait two minutes before its first check.
        let bounded = pool.bounded(BoundedWaits(timeout: .milliseconds(150), maxBorrowers: 2, retryInterval: .seconds(120)))
        let gate = try #require(bounded.gate)
        let release = holdingAConnection(of: pool)
        // No connection free within the bound: the view takes the database as stalled and starts its watcher.
        #expect {
            try bounded.withConnection { _ in }
        } throws: { ($0 as? PostgresError)?.code == .poolTimeout }
        #expect(gate.isStalled)
        #expect(gate.isWatching)
        release.signal()
        pool.shutdown()
        try waitUntil("the watcher to end with the pool", timeout: 30) { !gate.isWatching }
    }
}
