import Foundation
@testable import LinkService
import Testing

@Suite("Hit batch summary")
struct HitBatchSummaryTests {
    /// Runs of equal hits, interleaved, and the same hits one by one: the summaries agree, and match a count by hand.
    @Test func runsOfEqualHitsCountLikeSingleHits() {
        let workspace = UUID(), now = Date()
        let kinds = [
            Hit.sample(workspace: workspace, path: "/a", time: now, visitor: "v1"),
            Hit.sample(workspace: workspace, path: "/b", isBot: true, time: now, referrer: "news.example", visitor: "v2"),
            Hit.sample(workspace: workspace, path: "/a", source: .resolve, time: now, visitor: "v1"),
            Hit.sample(workspace: workspace, path: "/a", time: now.addingTimeInterval(-86_400), visitor: "v1"), // yesterday
            Hit.sample(workspace: nil, path: "/a", time: now), // no workspace: not rolled up
        ]
        // Runs of 1 to 5 of each kind, in an order that returns to earlier kinds.
        let pattern = [0, 0, 0, 1, 0, 2, 2, 1, 1, 1, 1, 3, 0, 4, 4, 2, 0, 3, 3, 1]
        let hits = pattern.map { kinds[$0] }
        let together = HitBatchSummary(hits)
        var apart = HitBatchSummary()
        for hit in hits { apart.add([hit]) }
        var chunked = HitBatchSummary()
        for start in stride(from: 0, to: hits.count, by: 3) { chunked.add(hits[start..<min(start + 3, hits.count)]) }

        for summary in [together, chunked] {
            #expect(summary.rollups == apart.rollups)
            #expect(summary.tops.mapValues(\.humanClick) == apart.tops.mapValues(\.humanClick))
            #expect(summary.tops.mapValues(\.botClick) == apart.tops.mapValues(\.botClick))
            #expect(summary.tops.mapValues(\.humanResolve) == apart.tops.mapValues(\.humanResolve))
            #expect(summary.days == apart.days)
        }
        // By hand: 15 hits with a workspace in 4 rollup rows (kind 0 and 3 differ by hour), kind 4 left out.
        #expect(together.rollups.values.map(\.hits).reduce(0, +) == Int64(pattern.filter { $0 != 4 }.count))
        #expect(together.rollups.count == 4)
        let pathA = together.tops.filter { $0.key.dimension == .path && $0.key.value == "/a" }.values
        #expect(pathA.map(\.humanClick).reduce(0, +) == Int64(pattern.filter { $0 == 0 || $0 == 3 }.count))
        #expect(pathA.map(\.humanResolve).reduce(0, +) == Int64(pattern.filter { $0 == 2 }.count))
        #expect(
            together.tops.filter { $0.key.dimension == .referrer }.values.map(\.botClick).reduce(0, +)
                == Int64(pattern.filter { $0 == 1 }.count))
        // Each row's distinct visitors: v1 in kind 0's, 2's and 3's rows, v2 in kind 1's.
        #expect(
            together.rollups.values.map { $0.visitors.sorted() }.sorted { $0.joined() < $1.joined() } == [["v1"], ["v1"], ["v1"], ["v2"]])
        #expect(together.days.count == 2)
    }
}
