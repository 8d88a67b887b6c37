import Foundation
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// The background checks' schedule (`AssociationCheckStore`): each domain gets a stable slot spread over the
/// interval, and nodes claiming due domains at once never take the same one.
@Suite("Association check schedule")
struct AssociationCheckScheduleTests {
    static let domains = 2_000
    static let interval = 3_600

    /// A service (background checks off) whose database holds `domains` domains of one workspace.
    static func withDomains(_ body: (ConnectionPool) throws -> Void) throws {
        try TestService.with { service in
            _ = try service.key()
            try service.application.pool.withConnection { connection in
                try connection.execute(
                    """
                    INSERT INTO domains (workspace_id, hostname, settings)
                    SELECT (SELECT id FROM workspaces WHERE name = 'acme'), 'd' || i || '.example.com', '{}'
                    FROM generate_series(1, \(domains)) i
                    """)
            }
            try body(service.application.pool)
        }
    }

    @Test("slots are spread evenly over the interval and stay put")
    func slotsAreSpread() throws {
        try Self.withDomains { pool in
            try pool.withConnection { connection in
                #expect(try AssociationCheckStore.schedule(interval: Self.interval, on: connection) == Self.domains)
                #expect(try AssociationCheckStore.schedule(interval: Self.interval, on: connection) == 0)
                let rows = try connection.query(
                    """
                    SELECT floor(extract(epoch FROM due_at - now()) / \(Self.interval / 10))::int8, count(*)::int8,
                           bool_and(due_at > now() AND due_at <= now() + make_interval(secs => \(Self.interval)))
                    FROM association_check_schedule GROUP BY 1 ORDER BY 1
                    """
                ).map { try $0.decode((Int64, Int64, Bool).self) }
                #expect(rows.count == 10, "\(rows)")
                #expect(rows.allSatisfy { $0.2 }, "every first slot within one interval from now")
                // 200 a tenth on average: a burst would put far more in one tenth.
                #expect(rows.allSatisfy { (140...260).contains($0.1) }, "\(rows)")
            }
        }
    }

    @Test("two nodes claiming at once never take the same domain; a claimed domain moves one interval on")
    func claimsAreExclusive() throws {
        try Self.withDomains { pool in
            try pool.withConnection { try AssociationCheckStore.schedule(interval: Self.interval, on: $0) }
            // Everything due: slots 1 to 2,000 seconds ago.
            try pool.withConnection { connection in
                try connection.execute(
                    """
                    UPDATE association_check_schedule s SET due_at = now() - make_interval(secs => 1 + (SELECT count(*) FROM domains d WHERE d.id < s.domain_id))
                    """)
            }
            let before = try pool.withConnection { connection in
                Dictionary(
                    uniqueKeysWithValues: try connection.query("SELECT domain_id, due_at FROM association_check_schedule")
                        .map { try $0.decode((UUID, Date).self) })
            }
            var first: [UUID] = []
            var second: [UUID] = []
            try pool.withConnection { a in
                try pool.withConnection { b in
                    try a.execute("BEGIN")
                    try b.execute("BEGIN")
                    first = try AssociationCheckStore.claimDue(limit: 300, interval: Self.interval, on: a).map(\.id)
                    second = try AssociationCheckStore.claimDue(limit: 300, interval: Self.interval, on: b).map(\.id)
                    try a.execute("COMMIT")
                    try b.execute("COMMIT")
                }
            }
            #expect(first.count == 300)
            #expect(second.count == 300)
            #expect(Set(first).isDisjoint(with: second))
            try pool.withConnection { connection in
                let after = Dictionary(
                    uniqueKeysWithValues: try connection.query("SELECT domain_id, due_at FROM association_check_schedule")
                        .map { try $0.decode((UUID, Date).self) })
                for id in first + second {
                    let moved = try #require(after[id]).timeIntervalSince(try #require(before[id]))
                    // One interval on from its slot (the slot was less than an interval ago): the phase is kept.
                    #expect(abs(moved - Double(Self.interval)) < 0.01, "\(moved)")
                }
                // The earliest due were claimed first.
                let claimed = Set(first + second)
                let latestClaimed = claimed.map { before[$0]! }.max()!
                #expect(before.filter { !claimed.contains($0.key) }.allSatisfy { $0.value >= latestClaimed })
                // Claimed rows are not due again; the rest still are.
                #expect(
                    try AssociationCheckStore.claimDue(limit: 5_000, interval: Self.interval, on: connection).count == Self.domains - 600)
                #expect(try AssociationCheckStore.claimDue(limit: 5_000, interval: Self.interval, on: connection).isEmpty)
            }
        }
    }
}
