import Foundation
import LinkKit
import Observability
import Synchronization

/// Resolve answers of recently asked URLs, with their JSON: a URL asked again (a campaign link, the link in a
/// push sent to many, an app resolving what it was opened with) costs a lookup instead of the matcher, the
/// typed parameters and the JSON writer.
///
/// Coherence: an answer is kept with the catalog generation read before it was computed, and served only
/// while the catalog is still at that generation: any install (a rule changed here or on another node, a
/// reload) makes every kept answer a miss, so a cached answer is never older than the catalog it is served
/// beside.
///
/// Bounded: each worker thread has its own table (`Stripes.current`, so the workers take no lock another core
/// holds) of `capacity / Stripes.count` slots, rounded down to a power of two; a URL goes to the slot its hash
/// names and replaces whatever was there (direct-mapped: no list to keep, no resizing). URLs longer than
/// `maximumURLLength` are not kept. A capacity of 0 turns the cache off.
final class ResolveCache: Sendable {
    struct Key: Hashable, Sendable {
        let url: String
        let platform: DomainApp.Platform
        let workspace: UUID?
    }

    /// One answer as `GET /v1/resolve` sends it.
    final class Entry: Sendable {
        let key: Key
        let generation: UInt64
        let answer: Resolver.Answer
        let json: [UInt8]

        init(key: Key, generation: UInt64, answer: Resolver.Answer, json: [UInt8]) {
            self.key = key
            self.generation = generation
            self.answer = answer
            self.json = json
        }
    }

    static let maximumURLLength = 2048

    /// One thread's table, its lock on a cache line of its own.
    private final class Table: Sendable {
        let slots: Mutex<[Entry?]>
        private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

        init(count: Int) {
            slots = Mutex(Array(repeating: nil, count: count))
        }
    }

    private let tables: [Table]
    private let slotMask: Int

    /// Keeps up to `capacity` answers in all.
    init(capacity: Int) {
        let perTable = capacity / Stripes.count
        guard perTable > 0 else {
            tables = []
            slotMask = 0
            return
        }
        let slots = 1 << (Int.bitWidth - 1 - perTable.leadingZeroBitCount)   // the power of two at or below
        tables = (0..<Stripes.count).map { _ in Table(count: slots) }
        slotMask = slots - 1
    }

    /// The answer kept for `key` at `generation`, else `compute`'s, kept for the next ask.
    func entry(for key: Key, generation: UInt64, otherwise compute: () throws -> (Resolver.Answer, [UInt8])) rethrows -> Entry {
        guard !tables.isEmpty, key.url.utf8.count <= Self.maximumURLLength else {
            let (answer, json) = try compute()
            return Entry(key: key, generation: generation, answer: answer, json: json)
        }
        let table = tables[Stripes.current % tables.count]
        let slot = key.hashValue & slotMask
        if let kept = table.slots.withLock({ $0[slot] }), kept.generation == generation, kept.key == key {
            return kept
        }
        let (answer, json) = try compute()
        let entry = Entry(key: key, generation: generation, answer: answer, json: json)
        let replaced = table.slots.withLock { slots in
            defer { slots[slot] = entry }
            return slots[slot]
        }
        _ = replaced   // freed here, outside the lock
        return entry
    }
}
