import Dispatch
@testable import HTTPServer
import Synchronization
import Testing

@Suite("OnceSlots")
struct OnceSlotsTests {
    /// Counts the objects made and freed.
    final class Census: Sendable {
        let made = Atomic(0)
        let freed = Atomic(0)
    }

    final class Probe: Sendable {
        let value: Int
        let census: Census
        init(_ value: Int, census: Census) {
            self.value = value
            self.census = census
            census.made.add(1, ordering: .relaxed)
        }
        deinit { census.freed.add(1, ordering: .relaxed) }
    }

    @Test func slotsStartEmptyAndKeepTheFirstObject() {
        let census = Census()
        let slots = OnceSlots<Probe>(count: 3)
        #expect(slots.count == 3)
        #expect(slots[0] == nil && slots[2] == nil)
        let first = slots.object(1) { Probe(10, census: census) }
        let again = slots.object(1) { Probe(20, census: census) }
        #expect(first === again)
        #expect(again.value == 10)
        #expect(census.made.load(ordering: .relaxed) == 1)
        #expect(slots[1] === first)
        #expect(slots[0] == nil && slots[2] == nil)
    }

    @Test func racingThreadsAllGetTheStoredObjectAndNothingLeaks() {
        let census = Census()
        do {
            let slots = OnceSlots<Probe>(count: 1)
            let seen = Mutex<Set<ObjectIdentifier>>([])
            DispatchQueue.concurrentPerform(iterations: 64) { index in
                let object = slots.object(0) { Probe(index, census: census) }
                seen.withLock { _ = $0.insert(ObjectIdentifier(object)) }
            }
            #expect(seen.withLock { $0 } == [ObjectIdentifier(slots[0]!)])
            // Losers of the race are freed at once; only the stored object lives on.
            #expect(census.made.load(ordering: .relaxed) - census.freed.load(ordering: .relaxed) == 1)
        }
        // ... until the slots go: every object made is freed, none twice.
        #expect(census.freed.load(ordering: .relaxed) == census.made.load(ordering: .relaxed))
    }

    @Test func storedObjectsAreReleasedWithTheSlots() {
        let census = Census()
        weak var stored: Probe?
        do {
            let slots = OnceSlots<Probe>(count: 2)
            stored = slots.object(1) { Probe(1, census: census) }
            #expect(stored != nil)
        }
        #expect(stored == nil)
        #expect(census.freed.load(ordering: .relaxed) == 1)
    }
}
