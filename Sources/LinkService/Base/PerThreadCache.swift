import Observability
import Synchronization

/// Values of recently seen keys, kept per worker thread: a request that repeats an earlier one's input (the
/// same link, the same user agent, the same visitor) skips the work of computing its value again.
///
/// Each stripe of the owner's `StripeAssignment` has a table of its own (sized from the configured threads, so
/// the server's workers do not share one and no lock passes between cores; more threads share tables under
/// their locks) of `capacity / stripes.count` slots, rounded down to a power of two; a key goes to the slot its
/// hash names and replaces whatever was there (direct-mapped: no order to keep, no resizing, a bounded size).
/// A capacity under `stripes.count` turns the cache off.
///
/// Epochs: values derived from state that changes as a whole (the catalog) are kept with that state's epoch
/// (its generation); a table asked at a newer epoch first drops everything it holds, so stale values neither
/// answer nor keep what they reference (old catalog entries) alive.
final class PerThreadCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private final class Slot: Sendable {
        let key: Key
        let value: Value

        init(key: Key, value: Value) {
            self.key = key
            self.value = value
        }
    }

    /// One thread's table, its lock on a cache line of its own.
    private final class Table: Sendable {
        struct State {
            var epoch: UInt64 = 0
            var slots: [Slot?]
        }

        let state: Mutex<State>
        private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

        init(count: Int) {
            state = Mutex(State(slots: Array(repeating: nil, count: count)))
        }
    }

    private let tables: [Table]
    private let slotMask: Int
    private let stripes: StripeAssignment

    /// Keeps up to `capacity` values in all, a table per stripe of `stripes`.
    init(capacity: Int, stripes: StripeAssignment) {
        self.stripes = stripes
        let perTable = capacity / stripes.count
        guard perTable > 0 else {
            tables = []
            slotMask = 0
            return
        }
        let slots = 1 << (Int.bitWidth - 1 - perTable.leadingZeroBitCount) // the power of two at or below
        tables = (0..<stripes.count).map { _ in Table(count: slots) }
        slotMask = slots - 1
    }

    /// The value kept for `key` at `epoch` if `isCurrent` accepts it, else `compute`'s, kept for the next ask (a
    /// thrown error is not kept).
    func value(
        for key: Key, epoch: UInt64 = 0, isCurrent: (Value) -> Bool = { _ in true },
        otherwise compute: () throws -> Value
    ) rethrows -> Value {
        guard !tables.isEmpty else { return try compute() }
        let table = tables[stripes.current]
        let slot = key.hashValue & slotMask
        // The slots a newer epoch drops come out of the lock with the answer and are released outside it.
        let (kept, _) = table.state.withLock { state -> (Slot??, [Slot?]) in
            var dropped: [Slot?] = []
            if state.epoch < epoch {
                dropped = state.slots
                state.slots = Array(repeating: nil, count: dropped.count)
                state.epoch = epoch
            }
            return (state.epoch == epoch ? .some(state.slots[slot]) : nil, dropped) // nil: an older epoch, not kept
        }
        guard let kept else { return try compute() }
        if let kept, kept.key == key, isCurrent(kept.value) { return kept.value }
        let value = try compute()
        let fresh = Slot(key: key, value: value)
        let replaced = table.state.withLock { state -> Slot? in
            guard state.epoch == epoch else { return nil }
            defer { state.slots[slot] = fresh }
            return state.slots[slot]
        }
        _ = replaced // released here, outside the lock
        return value
    }
}
