import Foundation
import Observability
import LinkKit
@testable import LinkService
import Testing

@Suite("Resolve cache")
struct ResolveCacheTests {
    /// Counts the resolves the cache had to compute.
    final class Computations: @unchecked Sendable {
        var count = 0

        func compute(_ url: String) throws -> (Resolver.Answer, [UInt8]) {
            let parsed = try AASAURL(url)
            count += 1
            let answer = Resolver.Answer(url: url, parsed: parsed, entry: nil, resolution: nil, platform: .ios)
            return (answer, Array("\(url) #\(count)".utf8))
        }
    }

    func key(_ url: String, platform: AppPlatform = .ios, workspace: UUID? = nil) -> ResolveCache.Key {
        .init(link: .text(url), platform: platform, workspace: workspace)
    }

    @Test func anAnswerIsKeptWhileTheGenerationHolds() throws {
        // Large, so that the four keys below almost surely (1 - 3/65,536) take different slots.
        let cache = ResolveCache(capacity: 4 * 65_536, stripes: StripeAssignment(threads: 4))
        let computed = Computations()
        let url = "https://links.example.com/widget/1"
        let first = try cache.answer(for: key(url), generation: 1) { try computed.compute(url) }
        let again = try cache.answer(for: key(url), generation: 1) { try computed.compute(url) }
        #expect(computed.count == 1)
        #expect(again === first)
        // Another generation (the catalog changed), platform or workspace is another answer.
        let later = try cache.answer(for: key(url), generation: 2) { try computed.compute(url) }
        #expect(computed.count == 2)
        #expect(String(decoding: later.json, as: UTF8.self) == "\(url) #2")
        _ = try cache.answer(for: key(url, platform: .android), generation: 2) { try computed.compute(url) }
        _ = try cache.answer(for: key(url, workspace: UUID()), generation: 2) { try computed.compute(url) }
        #expect(computed.count == 4)
        #expect(try cache.answer(for: key(url), generation: 2) { try computed.compute(url) } === later)
        // A resolve that read an older generation is answered afresh, and does not replace what the newer one keeps.
        #expect(try cache.answer(for: key(url), generation: 1) { try computed.compute(url) } !== later)
        #expect(computed.count == 5)
        #expect(try cache.answer(for: key(url), generation: 2) { try computed.compute(url) } === later)
    }

    @Test func aNewGenerationDropsWhatTheOldOneKept() throws {
        let cache = ResolveCache(capacity: 4 * 1024, stripes: StripeAssignment(threads: 4))
        let url = "https://links.example.com/widget/1"
        weak var old: Resolver.Answer?
        try {
            let entry = try cache.answer(for: key(url), generation: 1) { try Computations().compute(url) }
            old = entry.answer
        }()
        #expect(old != nil, "kept at generation 1")
        _ = try cache.answer(for: key("https://links.example.com/other"), generation: 2) {
            try Computations().compute("https://links.example.com/other")
        }
        #expect(old == nil, "dropped when the table was asked at generation 2")
    }

    @Test func itHoldsAtMostItsCapacity() throws {
        let cache = ResolveCache(capacity: 64, stripes: StripeAssignment(threads: 4)) // 16 slots per worker table
        let computed = Computations()
        let urls = (0..<200).map { "https://links.example.com/widget/\($0)" }
        for url in urls { _ = try cache.answer(for: key(url), generation: 1) { try computed.compute(url) } }
        let before = computed.count
        for url in urls { _ = try cache.answer(for: key(url), generation: 1) { try computed.compute(url) } }
        let recomputed = computed.count - before
        #expect(recomputed >= 200 - 16, "at most one table's 16 slots kept, \(200 - recomputed) were")
    }

    @Test func offAndLongURLsAreComputedEveryTime() throws {
        let computed = Computations()
        let off = ResolveCache(capacity: 0, stripes: StripeAssignment(threads: 4))
        let url = "https://links.example.com/widget/1"
        _ = try off.answer(for: key(url), generation: 1) { try computed.compute(url) }
        _ = try off.answer(for: key(url), generation: 1) { try computed.compute(url) }
        #expect(computed.count == 2)
        let cache = ResolveCache(capacity: 64, stripes: StripeAssignment(threads: 4))
        let long = "https://links.example.com/" + String(repeating: "a", count: ResolveCache.maximumURLLength)
        _ = try cache.answer(for: key(long), generation: 1) { try computed.compute(long) }
        _ = try cache.answer(for: key(long), generation: 1) { try computed.compute(long) }
        #expect(computed.count == 4)
    }

    @Test func errorsAreNotKept() throws {
        let cache = ResolveCache(capacity: 64, stripes: StripeAssignment(threads: 4))
        let computed = Computations()
        for _ in 0..<2 {
            #expect(throws: LinkKitError.self) {
                try cache.answer(for: key("not a url"), generation: 1) { try computed.compute("not a url") }
            }
        }
        #expect(computed.count == 0)
    }
}
