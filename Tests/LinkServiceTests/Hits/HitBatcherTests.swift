import Foundation
import LinkKit
@testable import LinkService
import Postgres
import Synchronization
import Testing
import TestSupport

@Suite("Hit pipeline")
struct HitBatcherTests {
    @Test func concurrentLoadLosesNothing() throws {
        try HitHarness.with { harness throws in
            harness.batcher.start()
            let workspace = UUID()
            concurrently(8) { thread in
                for index in 0..<12_500 {
                    harness.batcher.record(.sample(workspace: workspace, path: "/t\(thread)/\(index % 50)", visitor: "v\(index % 100)"))
                }
            }
            harness.batcher.shutdown()
            let counters = harness.batcher.counters
            #expect(counters.accepted == 100_000)
            #expect(counters.written == 100_000)
            #expect(counters.dropped == 0)
            #expect(counters.queued == 0)
            #expect(try harness.count() == 100_000)
            // Ids come from blocks the writer reserves (HitCopyData): unique, however the batches fell.
            #expect(try harness.count("SELECT count(DISTINCT id) FROM hits") == 100_000)
            #expect(
                try harness.count("SELECT sum(hits)::int8 FROM hit_rollups_pending")
                    + harness.count("SELECT sum(hits)::int8 FROM hit_cubes_hourly WHERE cube = 1") == 100_000)
            try harness.fold()
            #expect(try harness.count("SELECT count(*) FROM hit_rollups_pending") == 0)
            // Every cube counts every hit in its daily rows (today's), and those with hourly rows there as well.
            #expect(
                try harness.count("SELECT count(*) FROM (SELECT cube FROM hit_cubes_daily GROUP BY cube HAVING sum(hits) = 100000) c")
                    == AnalyticsCube.all.count)
            #expect(
                try harness.count("SELECT count(*) FROM (SELECT cube FROM hit_cubes_hourly GROUP BY cube HAVING sum(hits) = 100000) c")
                    == AnalyticsCube.all.filter(\.hourly).count)
            #expect(
                try harness.count(
                    "SELECT sum(human_resolve + human_click + bot_resolve + bot_click)::int8 FROM hit_top_hourly WHERE dimension = 'path'")
                    == 100_000)
            // The visitors of each hour's rows, unioned: 100 distinct (exact at this size).
            #expect(
                try harness.count(
                    """
                    SELECT round(hll_cardinality(hll_union_agg(visitors)))::int8 FROM hit_cubes_hourly WHERE cube = 2
                    GROUP BY (hour AT TIME ZONE 'UTC')::date
                    """) == 100)
        }
    }

    @Test func aHitIsWrittenWithinTheFlushInterval() throws {
        try HitHarness.with { harness throws in
            harness.batcher.start()
            let started = Date()
            harness.batcher.record(.sample())
            #expect(try eventually { try harness.count() == 1 })
            #expect(Date().timeIntervalSince(started) < 1.5)
            try harness.fold()
            #expect(try harness.count("SELECT sum(hits)::int8 FROM hit_cubes_hourly WHERE cube = 1") == 1)
            #expect(harness.batcher.counters.written == 1)
        }
    }

    /// Each batch appends its rollups (migration 0024): two batches of one key leave two pending rows, which reads
    /// and the fold count as one, hits summed and visitors united.
    @Test func batchesOfOneKeyAppendRowsThatCountAsOne() throws {
        try HitHarness.with { harness throws in
            harness.batcher.start()
            let workspace = UUID()
            // One visitor's tap twice, in two batches.
            for written in 1...2 {
                harness.batcher.record(.sample(workspace: workspace, visitor: "v1"))
                #expect(try eventually { try harness.count() == written })
            }
            #expect(try harness.count("SELECT count(*) FROM hit_rollups_pending") == 2)
            try harness.fold()
            #expect(try harness.count("SELECT count(*) FROM hit_rollups_pending") == 0)
            #expect(try harness.count("SELECT count(*) FROM hit_cubes_hourly WHERE cube = 1") == 1)
            #expect(try harness.count("SELECT hits FROM hit_cubes_hourly WHERE cube = 1") == 2)
            #expect(try harness.count("SELECT round(hll_cardinality(visitors))::int8 FROM hit_cubes_hourly WHERE cube = 1") == 1)
        }
    }

    /// The fold runs on its own thread every `foldInterval`: nobody calls it here.
    @Test func theFoldThreadMovesPendingRollupsIntoTheCubes() throws {
        var configuration = HitsConfiguration()
        configuration.foldInterval = .milliseconds(200)
        try HitHarness.with(configuration: configuration) { harness throws in
            harness.batcher.start()
            harness.batcher.record(.sample(visitor: "v1"))
            #expect(
                try eventually {
                    try harness.count("SELECT coalesce(sum(hits), 0)::int8 FROM hit_cubes_hourly WHERE cube = 1") == 1
                })
            #expect(try harness.count("SELECT count(*) FROM hit_rollups_pending") == 0)
        }
    }

    @Test func shutdownWritesEveryAcceptedHit() throws {
        try HitHarness.with { harness throws in
            harness.batcher.start()
            let serving = Atomic<Bool>(true)
            // The application stops its HTTP server (in-flight requests still record) before the batcher:
            // here the load stops while hits are still queued, then shutdown must write all of them.
            let done = DispatchSemaphore(value: 0)
            Thread {
                concurrently(4) { _ in
                    while serving.load(ordering: .relaxed) { harness.batcher.record(.sample()) }
                }
                done.signal()
            }.start()
            #expect(
                eventually {
                    let counters = harness.batcher.counters
                    return counters.accepted > 1000 && counters.queued > 0
                })
            serving.store(false, ordering: .relaxed)
            done.wait()
            let queued = harness.batcher.counters.queued
            harness.batcher.shutdown()
            let counters = harness.batcher.counters
            #expect(counters.accepted > 1000)
            #expect(counters.written == counters.accepted)
            #expect(counters.dropped == 0)
            #expect(try harness.count() == counters.accepted)
            print("shutdown drained \(queued) queued hits of \(counters.accepted)")
        }
    }

    @Test func shutdownWithoutRunDrainsOnTheCallingThread() throws {
        try HitHarness.with { harness throws in
            for _ in 0..<10 { harness.batcher.record(.sample()) }
            harness.batcher.shutdown()
            harness.batcher.shutdown()
            #expect(try harness.count() == 10)
            harness.batcher.record(.sample())
            #expect(harness.batcher.counters.dropped == 1) // after shutdown: counted, never silent
        }
    }

    @Test func hostileTextRoundTrips() throws {
        try HitHarness.with { harness throws in
            harness.batcher.start()
            let path = "/a\tb\nc\\d\r\u{0}é😀,\"x\""
            harness.batcher.record(.sample(path: path, referrer: "ref\\host"))
            harness.batcher.shutdown()
            let stored = try harness.pool.withConnection {
                try $0.query("SELECT path, referrer_host FROM hits").first!.decode((String, String).self)
            }
            #expect(stored.0 == path.replacingOccurrences(of: "\u{0}", with: ""))
            #expect(stored.1 == "ref\\host")
        }
    }

    @Test func metricsExposeTheCounters() throws {
        try TestService.with { service throws in
            for _ in 0..<3 { service.application.hits.record(.sample()) }
            #expect(eventually { service.application.hits.counters.written == 3 })
            let text = try service.request("GET", "/metrics").text
            #expect(text.contains("linkd_hits_accepted_total 3"))
            #expect(text.contains("linkd_hits_written_total 3"))
            #expect(text.contains("linkd_hits_queued 0"))
            #expect(text.contains("linkd_hits_spooled 0"))
            #expect(text.contains("linkd_hits_dropped_total 0"))
        }
    }
}
