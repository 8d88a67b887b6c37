import Dispatch
import Foundation
@testable import LinkService
import Synchronization
import Testing

@Suite("Service thread")
struct ServiceThreadTests {
    /// The periodic loop passes on its own, then once more, marked last, when stopped; `stop` returns after it.
    @Test func passesPeriodicallyThenALastTime() {
        let thread = ServiceThread(name: "linkd.test")
        let passes = Mutex<[Bool]>([])
        let first = DispatchSemaphore(value: 0)
        thread.start(every: .milliseconds(10)) { isLast in
            let count = passes.withLock {
                $0.append(isLast); return $0.count
            }
            if count == 1 { first.signal() }
        }
        #expect(thread.isRunning)
        #expect(first.wait(timeout: .now() + 10) == .success)
        thread.stop()
        let seen = passes.withLock { $0 }
        #expect(seen.last == true)
        #expect(seen.dropLast().allSatisfy { !$0 } && seen.count >= 2)
        #expect(!thread.isRunning && thread.isStopping)
        thread.stop() // idempotent: returns at once
        #expect(passes.withLock { $0.count } == seen.count)
    }

    /// A stop wakes the loop at once, however long its period.
    @Test func aStopWakesTheLoopAtOnce() {
        let thread = ServiceThread(name: "linkd.test")
        thread.start(every: .seconds(3600)) { _ in }
        let started = ContinuousClock.now
        thread.stop()
        #expect(started.duration(to: .now) < .seconds(5))
    }

    /// `wake()` ends a sleep early.
    @Test func aWakeEndsTheSleep() {
        let thread = ServiceThread(name: "linkd.test")
        let woken = DispatchSemaphore(value: 0)
        thread.start(every: .seconds(3600)) { isLast in if !isLast { woken.signal() } }
        thread.wake()
        #expect(woken.wait(timeout: .now() + 10) == .success)
        thread.stop()
    }

    /// The system shows the thread by its name without `linkd.`, as `top -H` and `perf` list it.
    @Test func theSystemShowsTheThreadByName() throws {
        let thread = ServiceThread(name: "linkd.hits.writer")
        #expect(thread.systemName == "hits.writer")
        #expect(ServiceThread(name: "linkd.a-name-longer-than-fifteen").systemName == "a-name-longer-t")
        let named = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        thread.start {
            named.signal()
            proceed.wait()
        }
        defer {
            proceed.signal()
            thread.stop()
        }
        #expect(named.wait(timeout: .now() + 10) == .success)
        // Other tests' threads may end while this reads: theirs are skipped.
        let names = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").compactMap {
            try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(names.contains("hits.writer"))
    }

    /// Stopped before it started, the last pass runs on the caller, and a later start does nothing.
    @Test func aStopBeforeStartRunsTheLastPassOnTheCaller() {
        let thread = ServiceThread(name: "linkd.test")
        let caller = Thread.current
        let ranOnCaller = Mutex(false)
        thread.stop { ranOnCaller.withLock { $0 = Thread.current == caller } }
        #expect(ranOnCaller.withLock { $0 })
        #expect(!thread.start { Issue.record("started after a stop") })
        #expect(!thread.isRunning)
    }
}
