import Foundation
@testable import LinkService
import Postgres
import Testing
import TestSupport

@Suite("Hit partitions, retention and salts")
struct HitPartitionsTests {
    @Test func partitionNamesAreDays() {
        #expect(HitPartitions.name(day: 0) == "hits_p19700101")
        #expect(HitPartitions.name(day: 20_423) == "hits_p20251201")
        #expect(HitPartitions.day(ofPartition: "hits_p20251201") == 20_423)
        #expect(HitPartitions.day(ofPartition: "hits_default") == nil)
        #expect(TimestampText.date(day: 20_421) == "2025-11-29")
        #expect(TimestampText.date(day: -1) == "1969-12-31")
        #expect(TimestampText.date(day: 11_016) == "2000-02-29")
    }

    @Test func maintenanceCreatesPartitionsAheadAndDropsExpiredOnes() throws {
        try HitHarness.with(configuration: HitsConfiguration(retentionDays: 30, partitionsAhead: 7)) { harness throws in
            let today = VisitorHasher.day(of: Date())
            try harness.pool.withConnection { try HitPartitions.ensure(days: [today - 45, today - 31, today - 30], on: $0) }
            try harness.pool.withConnection { connection in
                for day in [today - 45, today - 31, today - 30] {
                    try connection.execute(
                        """
                        INSERT INTO hits (time, hostname, path, outcome, source, platform, is_bot)
                        VALUES (to_timestamp(\(Int(day) * 86_400 + 3600)), 'h', '/', 'no_match', 'click', 'ios', false)
                        """)
                }
            }
            let result = try harness.batcher.store.maintain()
            #expect(result.partitions == Set((today - 30)...(today + 7)).subtracting((today - 29)...(today - 2)))
            #expect(try harness.count() == 1) // the rows of the two expired days went with their partitions
            #expect(try harness.count("SELECT count(*) FROM hit_visitor_salts") == 2)
            #expect(result.salts.keys.sorted() == [today, today + 1])
        }
    }

    @Test func aHitOnADayWithoutAPartitionGetsOne() throws {
        try HitHarness.with { harness throws in
            harness.batcher.start()
            let longAgo = Date().addingTimeInterval(-40 * 86_400)
            let farAhead = Date().addingTimeInterval(30 * 86_400)
            harness.batcher.record(.sample(time: longAgo))
            harness.batcher.record(.sample(time: farAhead))
            harness.batcher.shutdown()
            #expect(try harness.count() == 2)
            let partitions = try harness.pool.withConnection { try HitPartitions.existing(on: $0) }
            #expect(partitions.contains(VisitorHasher.day(of: longAgo)))
            #expect(partitions.contains(VisitorHasher.day(of: farAhead)))
        }
    }

    @Test func visitorHashesAgreeAcrossNodesAndRotateDaily() throws {
        try HitHarness.with { harness throws in
            harness.batcher.start()
            #expect(try eventually { try harness.count("SELECT count(*) FROM hit_visitor_salts") == 2 })
            #expect(
                eventually {
                    harness.batcher.visitors.hash(ip: "192.0.2.1", userAgent: "UA")
                        == {
                            let other = VisitorHasher()
                            let salts = (try? harness.batcher.store.maintain().salts) ?? [:]
                            other.install(salts)
                            return other.hash(ip: "192.0.2.1", userAgent: "UA")
                        }()
                })
            let hasher = harness.batcher.visitors
            let now = Date()
            let hash = hasher.hash(ip: "192.0.2.1", userAgent: "UA", at: now)
            #expect(hash.count == 32)
            #expect(hash.allSatisfy { "0123456789abcdef".contains($0) }) // hex digits only: no trace of the dotted address
            #expect(hasher.hash(ip: "192.0.2.1", userAgent: "UA", at: now) == hash)
            #expect(hasher.hash(ip: "192.0.2.2", userAgent: "UA", at: now) != hash)
            #expect(hasher.hash(ip: "192.0.2.1", userAgent: "UA", at: now.addingTimeInterval(86_400)) != hash)
        }
    }
}
