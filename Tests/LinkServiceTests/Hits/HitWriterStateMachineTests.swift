@testable import LinkService
import Testing

/// The writer's decisions without PostgreSQL: every sequence of answers a runner can give, up to a depth,
/// against a model of the queue, the backlog, the spool and the database, plus tables for back-off, pacing,
/// splitting and the end of a stop.
@Suite("Hit writer state machine")
struct HitWriterStateMachineTests {
    typealias Machine = HitWriterStateMachine
    static let limits = Machine.Limits(
        maxBatchSize: 2, memoryLimit: 3, hardLimit: 8, flushInterval: .milliseconds(200), drainTimeout: .seconds(1))
    static let start = ContinuousClock.now

    /// Hits are numbered in the order they were accepted; the database refuses `bad` ones as data.
    struct World {
        var queue: [Int] = []
        var backlog: [Int] = []
        var loaded: [Int] = []
        var spool: [Int] = []
        var database: [Int] = []
        var dropped: [Int] = []
        var next = 0
        var stopAsked = false
        var closed = false
        var now = HitWriterStateMachineTests.start
        let bad: Set<Int>

        mutating func arrive(_ count: Int) {
            for _ in 0..<count { queue.append(next); next += 1 }
        }

        var accounted: [Int] { (database + dropped + spool).sorted() }
    }

    /// One answer the runner may give to an action.
    enum Choice: CaseIterable { case first, second }

    /// Walks every sequence of choices up to `depth` actions, checking the invariants after each step.
    static func explore(_ machine: Machine, _ action: Machine.Action, _ world: World, depth: Int, paths: inout Int) {
        guard depth > 0 else { paths += 1; return }
        for choice in Choice.allCases {
            var machine = machine
            var world = world
            guard let next = answer(action, choice, &machine, &world) else {
                paths += 1
                continue
            }
            guard check(machine, next, world) else { return }
            explore(machine, next, world, depth: depth - 1, paths: &paths)
        }
    }

    /// Performs `action` in the model world as the runner would; nil when the writer finished.
    static func answer(_ action: Machine.Action, _ choice: Choice, _ machine: inout Machine, _ world: inout World) -> Machine.Action? {
        world.now += .milliseconds(10)
        switch action {
        case .take:
            world.arrive(choice == .first ? 0 : 2)
            let count = world.queue.count
            world.backlog += world.queue
            world.queue = []
            return machine.taken(count, now: world.now)
        case .replay(let limit):
            ensure(machine.mayUseDatabase(at: world.now), "a replay while the database backs off")
            guard choice == .first else { world.loaded = []; return machine.databaseUnavailable(now: world.now) }
            world.loaded = Array(world.spool.prefix(limit))
            return machine.loaded(world.loaded.count, now: world.now)
        case .write(let source, let count, let pacing):
            ensure(machine.mayUseDatabase(at: world.now), "a write while the database backs off")
            ensure(count > 0 && count <= limits.maxBatchSize)
            if pacing.isPaced { ensure(!world.stopAsked, "a stop goes at full speed") }
            let hits = Array((source == .spool ? world.loaded : world.backlog).prefix(count))
            ensure(hits.count == count)
            guard choice == .first else { world.loaded = []; return machine.databaseUnavailable(now: world.now) }
            if hits.contains(where: world.bad.contains) { return machine.rejected(now: world.now) }
            world.database += hits
            release(source, count, &world)
            return machine.written(now: world.now)
        case .drop(let source, let count):
            let hits = Array((source == .spool ? world.loaded : world.backlog).prefix(count))
            ensure(hits.count == 1 && world.bad.contains(hits[0]), "only a refused hit is dropped")
            world.dropped += hits
            release(source, count, &world)
            return machine.written(now: world.now)
        case .spool(let count):
            ensure(count == world.backlog.count)
            guard choice == .first else { return machine.spoolFailed(now: world.now) }
            world.spool += world.backlog
            world.backlog = []
            return machine.spooled(now: world.now)
        case .sleep(let deadline):
            ensure(deadline - world.now <= .seconds(1))
            world.now = max(world.now, deadline)
            if choice == .second, !world.stopAsked { // the runner reports a stop once, then ticks
                world.stopAsked = true
                return machine.stop(now: world.now)
            }
            return machine.tick(now: world.now)
        case .finish(.drained):
            ensure(world.stopAsked)
            ensure(world.backlog.isEmpty && world.spool.isEmpty && world.loaded.isEmpty)
            if choice == .second { // a hit arrived before the queue was closed
                world.arrive(1)
                let count = world.queue.count
                world.backlog += world.queue
                world.queue = []
                return machine.taken(count, now: world.now)
            }
            world.closed = true
            ensure(world.accounted == Array(0..<world.next), "a stop that is done has every hit written or dropped")
            return nil
        case .finish(.spoolingTheRest):
            ensure(world.stopAsked && !machine.isDatabaseAvailable)
            world.spool += world.backlog + world.queue
            world.backlog = []
            world.queue = []
            world.closed = true
            ensure(world.accounted == Array(0..<world.next), "a stop that gives up spools every hit left")
            return nil
        }
    }

    static func release(_ source: Machine.Source, _ count: Int, _ world: inout World) {
        switch source {
        case .spool:
            world.loaded.removeFirst(count)
            world.spool.removeFirst(count)
        case .backlog:
            world.backlog.removeFirst(count)
        }
    }

    static func check(_ machine: Machine, _ action: Machine.Action, _ world: World) -> Bool {
        ensure(machine.backlog == world.backlog.count, "backlog \(machine.backlog) for \(world.backlog)")
            && ensure(machine.loaded == world.loaded.count, "loaded \(machine.loaded) for \(world.loaded)")
            && ensure(machine.spooled == world.spool.count, "spooled \(machine.spooled) for \(world.spool)")
            // spool < backlog < queue, each after what the database holds, which is in the order accepted.
            && ensure(isOrdered(world), "out of order: \(world)")
            && ensure(world.accounted.count + world.backlog.count + world.queue.count == world.next, "a hit went missing: \(world)")
    }

    /// Records an issue when `condition` fails; returns it.
    @discardableResult
    static func ensure(
        _ condition: Bool, _ message: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        if !condition { Issue.record(Comment(rawValue: message()), sourceLocation: sourceLocation) }
        return condition
    }

    /// Everything still to write (spool, then backlog, then queue) comes after what was written.
    static func isOrdered(_ world: World) -> Bool {
        guard zip(world.database, world.database.dropFirst()).allSatisfy({ $0 < $1 }) else { return false }
        let pending = world.spool + world.backlog + world.queue
        guard zip(pending, pending.dropFirst()).allSatisfy({ $0 < $1 }) else { return false }
        guard let last = world.database.last, let first = pending.first else { return true }
        return last < first
    }

    @Test(arguments: [0, 2], [Set<Int>(), [3]])
    func everyOrderOfAnswersKeepsEveryHitInOrder(leftInSpool: Int, bad: Set<Int>) {
        var world = World(bad: bad)
        world.arrive(leftInSpool)
        world.spool = world.queue
        world.queue = []
        var machine = Machine(limits: Self.limits, spooled: leftInSpool, now: Self.start)
        let first = machine.tick(now: world.now)
        var paths = 0
        Self.explore(machine, first, world, depth: 16, paths: &paths)
        #expect(paths > 10_000)
    }

    @Test func aStopWithNothingQueuedFinishesAtOnce() {
        var machine = Machine(limits: Self.limits, spooled: 0, now: Self.start)
        #expect(machine.stop(now: Self.start) == .take)
        #expect(machine.taken(0, now: Self.start) == .finish(.drained))
    }

    @Test func theBackOffDoublesToTwoSecondsAndResetsOnAWrite() {
        var machine = Machine(limits: Self.limits, spooled: 0, now: Self.start)
        var now = Self.start
        #expect(machine.tick(now: now) == .take)
        #expect(machine.taken(1, now: now) == .write(.backlog, count: 1, pacing: .spread(over: .milliseconds(100))))
        var waits: [Duration] = []
        for _ in 0..<7 {
            guard case .sleep(let until) = machine.databaseUnavailable(now: now) else { Issue.record("no sleep"); return }
            waits.append(machine.retryAt - now)
            now = max(until, machine.retryAt)
            #expect(machine.tick(now: now) == .take)
            // a retry that keeps up is paced
            #expect(machine.taken(0, now: now) == .write(.backlog, count: 1, pacing: .spread(over: .milliseconds(100))))
        }
        #expect(waits == [100, 200, 400, 800, 1600, 2000, 2000].map { Duration.milliseconds($0) })
        #expect(machine.written(now: now) == .take)
        #expect(machine.backoff == .milliseconds(100))
        #expect(machine.isDatabaseAvailable)
    }

    /// (backlog at the cycle's start, whether the last cycle overran, stopping) → the pacing of its first write.
    @Test(arguments: [
        (1, false, false, HitPacing.spread(over: .milliseconds(100))),
        (2, false, false, .spread(over: .milliseconds(100))),
        (3, false, false, .fullSpeed), // more than one transaction's worth
        (1, true, false, .fullSpeed), // behind: the last cycle overran
        (1, false, true, .fullSpeed), // the final drain
    ])
    func aCycleIsPacedOnlyWhenItKeepsUp(backlog: Int, overran: Bool, stopping: Bool, pacing: HitPacing) {
        var machine = Machine(limits: Self.limits, spooled: 0, now: Self.start)
        var now = Self.start
        if overran {
            _ = machine.tick(now: now)
            now += .milliseconds(300)
            guard case .sleep = machine.taken(0, now: now) else { Issue.record("no sleep"); return }
            #expect(machine.overran)
        }
        #expect((stopping ? machine.stop(now: now) : machine.tick(now: now)) == .take)
        #expect(machine.taken(backlog, now: now) == .write(.backlog, count: min(backlog, 2), pacing: pacing))
    }

    @Test func aRefusedBatchIsSplitDownToTheBadHitWhichIsTriedTwiceThenDropped() {
        let limits = Machine.Limits(
            maxBatchSize: 4, memoryLimit: 10, hardLimit: 20, flushInterval: .milliseconds(200), drainTimeout: .seconds(1))
        var machine = Machine(limits: limits, spooled: 0, now: Self.start)
        let now = Self.start
        _ = machine.tick(now: now)
        #expect(machine.taken(4, now: now) == .write(.backlog, count: 4, pacing: .spread(over: .milliseconds(100))))
        #expect(machine.rejected(now: now) == .write(.backlog, count: 2, pacing: .fullSpeed)) // hits 0-1
        #expect(machine.written(now: now) == .write(.backlog, count: 2, pacing: .fullSpeed)) // hits 2-3
        #expect(machine.rejected(now: now) == .write(.backlog, count: 1, pacing: .fullSpeed)) // hit 2
        #expect(machine.rejected(now: now) == .write(.backlog, count: 1, pacing: .fullSpeed)) // hit 2 again
        #expect(machine.rejected(now: now) == .drop(.backlog, count: 1))
        #expect(machine.written(now: now) == .write(.backlog, count: 1, pacing: .fullSpeed)) // hit 3
        #expect(machine.written(now: now) == .take)
        #expect(machine.backlog == 0)
    }

    @Test func theSpoolIsReplayedBeforeTheBacklog() {
        var machine = Machine(limits: Self.limits, spooled: 3, now: Self.start)
        let now = Self.start
        _ = machine.tick(now: now)
        #expect(machine.taken(1, now: now) == .replay(limit: 2))
        #expect(machine.loaded(2, now: now) == .write(.spool, count: 2, pacing: .fullSpeed))
        #expect(machine.written(now: now) == .take)
        #expect(machine.taken(0, now: now) == .replay(limit: 2))
        #expect(machine.loaded(1, now: now) == .write(.spool, count: 1, pacing: .fullSpeed))
        #expect(machine.written(now: now) == .take)
        #expect(machine.taken(0, now: now) == .write(.backlog, count: 1, pacing: .spread(over: .milliseconds(100))))
    }

    @Test func whatIsOverTheMemoryLimitWhileTheDatabaseIsDownGoesToTheSpool() {
        var machine = Machine(limits: Self.limits, spooled: 0, now: Self.start)
        var now = Self.start
        _ = machine.tick(now: now)
        _ = machine.taken(1, now: now)
        guard case .sleep(let until) = machine.databaseUnavailable(now: now) else { Issue.record("no sleep"); return }
        #expect(until == Self.start + .milliseconds(200)) // the next flush: later than the retry
        now = until
        _ = machine.tick(now: now)
        #expect(machine.taken(3, now: now) == .write(.backlog, count: 2, pacing: .fullSpeed))
        // Still down: four in memory, over the memory limit (three) while the database is down.
        #expect(machine.databaseUnavailable(now: now) == .spool(count: 4))
        guard case .sleep = machine.spooled(now: now) else { Issue.record("no sleep"); return }
        #expect(machine.spooled == 4 && machine.backlog == 0)
    }

    @Test func aStopWithTheDatabaseDownSpoolsTheRestAfterTheDrainTimeout() {
        var machine = Machine(limits: Self.limits, spooled: 0, now: Self.start)
        var now = Self.start
        _ = machine.stop(now: now)
        var action = machine.taken(1, now: now)
        #expect(action == .write(.backlog, count: 1, pacing: .fullSpeed))
        action = machine.databaseUnavailable(now: now)
        #expect(action == .sleep(until: now + .milliseconds(50))) // a stop looks again soon
        for _ in 0..<100 {
            switch action {
            case .sleep(let until):
                now = max(now + .milliseconds(10), until)
                action = machine.tick(now: now)
            case .take:
                action = machine.taken(0, now: now)
            case .write:
                action = machine.databaseUnavailable(now: now)
            case .finish(let how):
                #expect(how == .spoolingTheRest)
                #expect(now - Self.start >= .seconds(1))
                #expect(now - Self.start < .seconds(3))
                return
            default:
                Issue.record("unexpected \(action)")
                return
            }
        }
        Issue.record("never finished")
    }
}
