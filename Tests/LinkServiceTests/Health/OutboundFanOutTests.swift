import Dispatch
import Foundation
@testable import LinkService
import Synchronization
import Testing
import TestSupport

/// The health checks' outbound fan-out: no more requests in flight than its width, however many checks share it.
@Suite("Outbound fan-out")
struct OutboundFanOutTests {
    @Test func inFlightNeverExceedsTheWidthAcrossChecks() throws {
        let fanOut = OutboundFanOut(width: 3)
        let counts = Counts()
        let release = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        // Two checks of ten requests each at once, every request held until the test lets it go.
        for check in 0..<2 {
            DispatchQueue.global().async(group: done) {
                let results = fanOut.map(10) { index in
                    let now = counts.inside.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
                    _ = counts.peak.max(now, ordering: .acquiringAndReleasing)
                    release.wait()
                    _ = counts.inside.wrappingSubtract(1, ordering: .acquiringAndReleasing)
                    return check * 100 + index
                }
                #expect(results == (0..<10).map { check * 100 + $0 }, "results in order")
            }
        }
        try waitUntil("the width's requests in flight") { counts.inside.load(ordering: .acquiring) == 3 }
        for _ in 0..<20 { release.signal() }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(counts.peak.load(ordering: .acquiring) == 3)
    }

    private final class Counts: Sendable {
        let inside = Atomic<Int>(0)
        let peak = Atomic<Int>(0)
    }

    @Test func workersRunEveryIndexOnce() {
        let seen = Mutex<[Int]>([])
        let results = OutboundFanOut.map(50, workers: 4) { index in
            seen.withLock { $0.append(index) }
            return index * 2
        }
        #expect(results == (0..<50).map { $0 * 2 })
        #expect(seen.withLock { $0.sorted() } == Array(0..<50))
        #expect(OutboundFanOut.map(0, workers: 4) { $0 }.isEmpty)
    }
}
