import Dispatch
import Foundation
@testable import LinkService
import Observability
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

    /// A service's passes: the first at once, the next after the rest a pass answers (nil: straight on; a `wake()`
    /// ends a rest early). A pass that throws is logged as a warning, with what failed and the error, and the next one
    /// comes after `retry`.
    @Test func passesGoOnAfterAFailureWhichIsLogged() {
        struct Broken: Error {}
        let thread = ServiceThread(name: "linkd.test")
        let log = InMemoryLogSink()
        let passes = Mutex(0)
        let reached = DispatchSemaphore(value: 0)
        thread.startPasses(retry: .milliseconds(1), logger: Logger(label: "test", sink: log.sink), failure: "the test cannot pass now") {
            let count = passes.withLock {
                $0 += 1
                return $0
            }
            if count == 1 { throw Broken() }
            if count >= 3 { reached.signal() }
            // The second pass goes straight on to the third, which rests an hour, until woken.
            return count == 2 ? nil : .seconds(3600)
        }
        #expect(reached.wait(timeout: .now() + 60) == .success)
        thread.wake()
        #expect(reached.wait(timeout: .now() + 60) == .success)
        thread.stop()
        #expect(passes.withLock { $0 } == 4)
        let warnings = log.entries.filter { $0.level == .warning }
        #expect(warnings.map(\.message) == ["the test cannot pass now"])
        #expect(warnings.first?.metadata["error"] == "Broken()")
    }

    /// A stop while a pass runs ends the loop once the pass returns, though the pass slept through the stop's one
    /// wake (a retention pass rests between its statements): the loop does not rest its period first.
    @Test func aStopDuringAPassEndsTheLoopAfterIt() {
        let thread = ServiceThread(name: "linkd.test")
        let inPass = DispatchSemaphore(value: 0)
        thread.startPasses(every: .seconds(3600), logger: Logger(label: "test", sink: .discard), failure: "cannot pass") {
            inPass.signal()
            _ = thread.sleep(until: .now() + .seconds(3600))
        }
        #expect(inPass.wait(timeout: .now() + 60) == .success)
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            thread.stop()
            stopped.signal()
        }
        #expect(stopped.wait(timeout: .now() + 60) == .success, "stop() returned")
    }
}
