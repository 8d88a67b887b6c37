import Dispatch
import Foundation
import Synchronization

/// The thread of a background service: a loop that sleeps between passes until a deadline or `wake()`, and
/// that `stop()` wakes at once, to make a last pass (write out what is held) and return. Never a polling sleep:
/// the loop waits on a semaphore that `wake()` and `stop()` signal.
///
/// `stop()` before `start()` runs the last pass on the calling thread instead (so what was queued before the
/// service started is not lost), and a later `start()` does nothing.
final class ServiceThread: Sendable {
    /// The thread's name (`linkd.hits.writer`).
    let name: String
    /// The name the system shows (`top -H`, `perf`, `/proc/<pid>/task/*/comm`): without `linkd.`, as the process
    /// is linkd, and cut to the 15 bytes Linux keeps (`hits.writer`).
    var systemName: String {
        let short = name.hasPrefix("linkd.") ? name.dropFirst("linkd.".count) : Substring(name)
        return String(decoding: short.utf8.prefix(15), as: UTF8.self)
    }
    /// 0 before `start()`, 1 running, 2 stopping or stopped.
    private let phase = Atomic<Int>(0)
    private let wakeUp = DispatchSemaphore(value: 0)
    /// Signalled when the last pass is done (on the thread, or on the caller of a `stop()` before `start()`);
    /// re-signalled by each waiter, so every caller of `stop()` returns only then.
    private let finished = DispatchSemaphore(value: 0)

    init(name: String) {
        self.name = name
    }

    /// Whether the loop runs and has not been asked to stop.
    var isRunning: Bool { phase.load(ordering: .acquiring) == 1 }

    /// Whether `stop()` was called: the loop should make its last pass and return.
    var isStopping: Bool { phase.load(ordering: .acquiring) == 2 }

    /// Starts a thread running `loop`, which returns once `isStopping` (`sleep(until:)` tells it). Only the
    /// first call before `stop()` starts one; it returns whether it did.
    @discardableResult
    func start(_ loop: @escaping @Sendable () -> Void) -> Bool {
        guard phase.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else { return false }
        let thread = Thread { [finished, systemName] in
            // Foundation keeps `Thread.name` to itself on Linux when set before the thread starts; a thread may
            // name itself through its `comm` file (proc(5)). A name is a help to operators, so a failure is ignored.
            try? systemName.write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
            loop()
            finished.signal()
        }
        thread.name = name
        thread.start()
        return true
    }

    /// Starts a thread that calls `pass(false)` every `interval` (and at each `wake()`), then `pass(true)` once
    /// stopped: a periodic flusher.
    @discardableResult
    func start(every interval: DispatchTimeInterval, _ pass: @escaping @Sendable (_ isLast: Bool) -> Void) -> Bool {
        start { [self] in
            while !sleep(until: .now() + interval) { pass(false) }
            pass(true)
        }
    }

    /// On the loop's thread: waits until `deadline`, a `wake()` or `stop()`. Returns whether stopping. (`stop()`
    /// wakes one sleep: a loop that still sleeps while stopping, to back off while it drains, sleeps in full.)
    @discardableResult
    func sleep(until deadline: DispatchTime) -> Bool {
        _ = wakeUp.wait(timeout: deadline)
        return isStopping
    }

    /// Ends the loop's current sleep early (each call one wake).
    func wake() {
        wakeUp.signal()
    }

    /// Asks the loop to stop, wakes it and returns once its last pass is done. Before `start()` it runs
    /// `lastPass` on the calling thread instead. Idempotent: later and concurrent callers wait for the same end.
    func stop(lastPass: () -> Void = {}) {
        switch phase.exchange(2, ordering: .acquiringAndReleasing) {
        case 0:
            lastPass()
            finished.signal()
        case 1:
            wakeUp.signal()
        default:
            break
        }
        finished.wait()
        finished.signal()
    }
}
