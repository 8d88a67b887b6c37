import Foundation
import Synchronization

/// Requests of publishable app keys counted per key and per client address in fixed one-minute windows; past a limit,
/// `POST /v1/events` answers 429 with `Retry-After` until the window ends (docs/EVENTS.md, "Who may send"). The limits
/// are options (`--event-key-rate-limit`, `--event-address-rate-limit`).
///
/// Memory is bounded whatever is sent: each side is a fixed table of counters, a key or address counting in the slot
/// its hash (seeded per process) picks; two sharing a slot share a limit, which errs on the side of refusing.
final class EventRateLimit: Sendable {
    private struct Slot: Sendable {
        var windowStart: Int64 = 0
        var count: Int32 = 0
    }

    private let slots: Mutex<(keys: [Slot], addresses: [Slot])>
    let perKey: Int32
    let perAddress: Int32
    static let window: Int64 = 60
    private let size: Int

    /// - Parameters:
    ///   - perKey: requests a window per app key (`ServiceConfiguration.eventKeyRequestsPerMinute`).
    ///   - perAddress: requests a window per client address (`ServiceConfiguration.eventAddressRequestsPerMinute`).
    ///   - size: counters on each side.
    init(perKey: Int, perAddress: Int, size: Int = 16_384) {
        self.perKey = Int32(perKey)
        self.perAddress = Int32(perAddress)
        self.size = size
        slots = Mutex((Array(repeating: Slot(), count: size), Array(repeating: Slot(), count: size)))
    }

    /// Counts one request of `key` from `address` (only checks, with `counting` false); nil when allowed, else the
    /// seconds to wait.
    func admit(key: String, address: String, counting: Bool = true, now: Date = Date()) -> Int? {
        let seconds = Int64(now.timeIntervalSince1970)
        let (k, a) = (slot(key), slot(address))
        return slots.withLock { slots in
            func take(_ slot: inout Slot, limit: Int32) -> Int64? {
                if seconds - slot.windowStart >= Self.window { slot = Slot(windowStart: seconds, count: 0) }
                guard slot.count < limit else { return slot.windowStart + Self.window - seconds }
                return nil
            }
            let waits = [take(&slots.keys[k], limit: perKey), take(&slots.addresses[a], limit: perAddress)].compactMap { $0 }
            if let wait = waits.max() { return Int(max(1, wait)) }
            guard counting else { return nil }
            slots.keys[k].count += 1
            slots.addresses[a].count += 1
            return nil
        }
    }

    private func slot(_ text: String) -> Int {
        var hasher = Hasher()
        hasher.combine(text)
        return Int(UInt(bitPattern: hasher.finalize()) % UInt(size))
    }
}
