import Foundation
import Synchronization

/// Failed sign-ins counted per account (the email tried, whether or not a person has it) and per client address,
/// in fixed windows; past a limit, sign-in answers 429 until the window ends (docs/PEOPLE.md, "Signing in").
///
/// Memory is bounded whatever is tried: each side is a fixed table of counters, an email or address counting in
/// the slot its hash (seeded per process, so slots cannot be aimed at) picks. Two names sharing a slot share a
/// limit, which errs on the side of refusing. An attempt takes its place in both counters before its password
/// is checked (`begin`), under one lock, so a parallel guessing run gets no more tries than a sequential one; a
/// success gives them back (`succeeded`).
final class SignInThrottle: Sendable {
    private struct Slot: Sendable {
        var windowStart: Int64 = 0
        var failures: Int32 = 0
    }

    private struct State: Sendable {
        var accounts: [Slot]
        var addresses: [Slot]
    }

    /// An attempt that took its place; hand it back with `succeeded` or leave it counted.
    struct Attempt: Sendable {
        fileprivate let account: Int
        fileprivate let address: Int
        fileprivate let windowStart: (account: Int64, address: Int64)
    }

    private let state: Mutex<State>
    private let perAccount: Int32
    private let perAddress: Int32
    private let window: Int64
    private let slots: Int

    init(perAccount: Int, perAddress: Int, window: Int, slots: Int = 65_536) {
        self.perAccount = Int32(perAccount)
        self.perAddress = Int32(perAddress)
        self.window = Int64(window)
        self.slots = slots
        state = Mutex(State(accounts: Array(repeating: Slot(), count: slots), addresses: Array(repeating: Slot(), count: slots)))
    }

    /// Counts an attempt for `email` from `address` as failed until told otherwise; nil and the seconds to wait
    /// when either has no try left in its window.
    func begin(email: String, address: String, now: Date = Date()) -> Result<Attempt, Refusal> {
        let seconds = Int64(now.timeIntervalSince1970)
        let account = slot(of: "a:" + email.lowercased())
        let address = slot(of: "i:" + address)
        return state.withLock { state in
            func current(_ slot: inout Slot) {
                if seconds - slot.windowStart >= window {
                    slot.windowStart = seconds
                    slot.failures = 0
                }
            }
            current(&state.accounts[account])
            current(&state.addresses[address])
            let byAccount = state.accounts[account], byAddress = state.addresses[address]
            var wait: Int64 = 0
            if byAccount.failures >= perAccount { wait = max(wait, byAccount.windowStart + window - seconds) }
            if byAddress.failures >= perAddress { wait = max(wait, byAddress.windowStart + window - seconds) }
            guard wait == 0 else { return .failure(Refusal(retryAfter: Int(max(1, wait)))) }
            state.accounts[account].failures += 1
            state.addresses[address].failures += 1
            return .success(Attempt(account: account, address: address, windowStart: (byAccount.windowStart, byAddress.windowStart)))
        }
    }

    /// The attempt was right: it does not count (and the account's earlier failures are forgiven).
    func succeeded(_ attempt: Attempt) {
        state.withLock { state in
            if state.accounts[attempt.account].windowStart == attempt.windowStart.account { state.accounts[attempt.account].failures = 0 }
            if state.addresses[attempt.address].windowStart == attempt.windowStart.address, state.addresses[attempt.address].failures > 0 {
                state.addresses[attempt.address].failures -= 1
            }
        }
    }

    /// Why an attempt may not be made now.
    struct Refusal: Error, Sendable {
        let retryAfter: Int
    }

    private func slot(of name: String) -> Int {
        var hasher = Hasher()
        hasher.combine(name)
        return Int(UInt(bitPattern: hasher.finalize()) % UInt(slots))
    }
}
