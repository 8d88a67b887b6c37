import Foundation
import Observability
import Postgres

/// What a pipeline's writer writes with (`RecordWriter`): its record type, the batch write, and its maintenance.
/// Hits' is `HitWriteTarget`, events' `EventWriteTarget`.
protocol RecordTarget: Sendable {
    associatedtype Record: SpoolRecord & Sendable
    /// Periodic work needing the database (hits: partitions, retention, salts); called at each cycle's start
    /// while the database may be used, it decides itself whether it is due.
    mutating func maintainIfDue()
    /// Writes `records` in one transaction; throws `.rejected` when the data itself was refused.
    mutating func write(_ records: ArraySlice<Record>, pacing: HitPacing) throws(HitStore.Failure)
    /// The database refused a batch as data: forget what may have caused it (hits: the partitions known).
    mutating func rejected()
    /// What the log line of a record the database refused says of it.
    func describe(_ record: Record) -> Logger.Metadata
}

/// A pipeline's writer thread (hits, events): performs what `HitWriterStateMachine` decides, and reports back what
/// happened. Everything here runs on that one thread, so it needs no lock; it meets the request threads only in
/// `RecordQueue.state`. It holds the records the machine counts: the backlog (taken from the queue) and the
/// records loaded from the spool for a replay.
struct RecordWriter<Target: RecordTarget>: Sendable {
    typealias Record = Target.Record
    private let queue: RecordQueue<Record>
    private var target: Target
    private let clock = ContinuousClock()
    private var machine: HitWriterStateMachine
    /// Records taken from the queue and not yet written or spooled: `backlog[backlogStart...]`.
    private var backlog: [Record] = []
    private var backlogStart = 0
    /// Spooled records being replayed: `loaded[loadedStart...]`.
    private var loaded: [Record] = []
    private var loadedStart = 0
    /// The queue's previous buffer, emptied with its capacity kept: the next `take` hands it back to the request
    /// threads, so appending under the lock never regrows the queue from nothing (each doubling copied every
    /// queued record while the other threads waited for the lock).
    private var spare: [Record] = []
    /// The last refusal of the database, for the log line of a dropped record.
    private var lastRejection: PostgresError?
    private var stopSeen = false

    init(queue: RecordQueue<Record>, target: Target) {
        self.queue = queue
        self.target = target
        machine = HitWriterStateMachine(
            limits: queue.limits, spooled: queue.spool.isEmpty ? 0 : max(1, queue.spool.count), now: clock.now)
    }

    private var backlogCount: Int { backlog.count - backlogStart }

    /// Performs the machine's actions until it finishes (after a stop).
    mutating func run() {
        var action = wake()
        while true {
            switch action {
            case .take:
                let count = take()
                action = machine.taken(count, now: clock.now)
            case .replay(let limit):
                action = replay(limit: limit)
            case .write(let source, let count, let pacing):
                action = write(source, count: count, pacing: pacing)
            case .drop(let source, let count):
                action = drop(source, count: count)
            case .spool(let count):
                action = spool(count)
            case .sleep(let deadline):
                sleep(until: deadline)
                action = wake()
            case .finish(.drained):
                guard let next = finishIfEmpty() else { return }
                action = next
            case .finish(.spoolingTheRest):
                spoolTheRest()
                return
            }
        }
    }

    /// The start of a cycle: maintenance when due, then `stop` once a stop was asked, else `tick`.
    private mutating func wake() -> HitWriterStateMachine.Action {
        maintainIfDue()
        if !stopSeen, queue.thread.isStopping {
            stopSeen = true
            return machine.stop(now: clock.now)
        }
        return machine.tick(now: clock.now)
    }

    /// Moves everything queued to the backlog (one swap of buffers under the lock).
    private mutating func take() -> Int {
        var buffer = spare
        spare = []
        queue.state.withLock { state in
            swap(&state.queue, &buffer)
            state.held += buffer.count
        }
        if backlogStart > 0, backlogStart * 2 > backlog.count {
            backlog.removeFirst(backlogStart)
            backlogStart = 0
        }
        let count = buffer.count
        if backlogCount == 0 {
            // The usual case: the taken buffer becomes the backlog (its records moved, not copied and released), and the
            // backlog's emptied storage the spare.
            backlog.removeAll(keepingCapacity: true)
            backlogStart = 0
            swap(&backlog, &buffer)
        } else {
            backlog.append(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
        }
        // Kept for the next swap unless a burst made it larger than a batch.
        if buffer.capacity <= queue.limits.maxBatchSize {
            spare = buffer
        }
        return count
    }

    /// The target's maintenance, when the database may be used.
    mutating func maintainIfDue() {
        guard machine.mayUseDatabase(at: clock.now) else { return }
        target.maintainIfDue()
    }

    private mutating func replay(limit: Int) -> HitWriterStateMachine.Action {
        do {
            let records = try queue.spool.peek(limit: limit) ?? []
            loaded = records
            loadedStart = 0
            return machine.loaded(records.count, now: clock.now)
        } catch {
            queue.logger.error("cannot read the spool", metadata: ["error": "\(error)"])
            return unavailable(error)
        }
    }

    private mutating func write(_ source: HitWriterStateMachine.Source, count: Int, pacing: HitPacing) -> HitWriterStateMachine.Action {
        let records = source == .backlog ? backlog[backlogStart..<backlogStart + count] : loaded[loadedStart..<loadedStart + count]
        do {
            try target.write(records, pacing: pacing)
        } catch {
            guard case .rejected(let rejection) = error else { return unavailable(error) }
            lastRejection = rejection
            target.rejected()
            return machine.rejected(now: clock.now)
        }
        return release(source, count: count, written: count)
    }

    private mutating func drop(_ source: HitWriterStateMachine.Source, count: Int) -> HitWriterStateMachine.Action {
        let first = source == .backlog ? backlog[backlogStart] : loaded[loadedStart]
        queue.logger.error(
            "the database rejected \(queue.noun.one); dropped",
            metadata: target.describe(first).merging(["db.sqlstate": lastRejection?.sqlState?.rawValue ?? "-"]) { $1 })
        return release(source, count: count, written: 0)
    }

    /// Lets the first `count` records of `source` go (written, or dropped) and counts them.
    private mutating func release(_ source: HitWriterStateMachine.Source, count: Int, written: Int) -> HitWriterStateMachine.Action {
        switch source {
        case .spool:
            do {
                try queue.spool.consume(count)
            } catch {
                return unavailable(error)
            }
            loadedStart += count
        case .backlog:
            backlogStart += count
            if backlogStart == backlog.count {
                backlog.removeAll(keepingCapacity: backlog.capacity <= 4 * queue.limits.maxBatchSize)
                backlogStart = 0
            }
        }
        let counter: WritableKeyPath<RecordQueueState<Record>, Int> = source == .spool ? \.spooled : \.held
        let wasAvailable = machine.isDatabaseAvailable
        queue.state.withLock { state in
            state[keyPath: counter] -= count
            state.written += written
            state.dropped += count - written
        }
        let next = machine.written(now: clock.now)
        if queue.spoolFailure != nil { checkSpool() } // until it can be written again
        if !wasAvailable {
            queue.logger.notice(
                "\(queue.noun.singular) writer: database available again",
                metadata: ["\(queue.noun.plural).spooled": "\(queue.state.withLock { $0.spooled })"])
        }
        return next
    }

    private mutating func unavailable(_ error: any Error) -> HitWriterStateMachine.Action {
        if machine.isDatabaseAvailable {
            queue.logger.warning("\(queue.noun.singular) writer: database unavailable; buffering", metadata: ["error": "\(error)"])
        }
        loaded = []
        loadedStart = 0
        checkSpool()
        return machine.databaseUnavailable(now: clock.now)
    }

    /// While the database is away the spool is what keeps accepted records through a stop: whether it can be
    /// written is checked at each failed attempt (at most every backoff), not only when the backlog spills, so
    /// `/readyz` and `/metrics` tell an operator before a stop would lose what is held in memory.
    private func checkSpool() {
        do {
            try queue.spool.checkWritable()
            noteSpool(failure: nil)
        } catch {
            noteSpool(failure: "\(error)")
        }
    }

    /// Records whether the spool could be written, logging the change.
    private func noteSpool(failure: String?) {
        let before = queue.state.withLock { state in
            defer { state.spoolFailure = failure }
            return state.spoolFailure
        }
        if let failure, before == nil {
            queue.logger.critical(
                "the \(queue.noun.singular) spool cannot be written: \(queue.noun.plural) held in memory are lost if linkd stops before the database is back",
                metadata: ["error": "\(failure)", "\(queue.noun.plural).spool_dir": queue.spool.directory.path])
        } else if failure == nil, before != nil {
            queue.logger.notice("the \(queue.noun.singular) spool can be written again")
        }
    }

    /// Appends the backlog to the spool.
    private mutating func spool(_ count: Int) -> HitWriterStateMachine.Action {
        guard appendBacklogToSpool() else { return machine.spoolFailed(now: clock.now) }
        return machine.spooled(now: clock.now)
    }

    private mutating func appendBacklogToSpool() -> Bool {
        let records = backlog[backlogStart...]
        guard !records.isEmpty else { return true }
        do {
            try queue.spool.append(records)
        } catch {
            queue.logger.error(
                "cannot spool \(queue.noun.plural); keeping them in memory",
                metadata: ["error": "\(error)", "\(queue.noun.plural).queued": "\(records.count)"])
            noteSpool(failure: "\(error)")
            return false
        }
        noteSpool(failure: nil)
        let count = records.count
        backlog.removeAll()
        backlogStart = 0
        queue.state.withLock { state in
            state.held -= count
            state.spooled += count
            state.spooledTotal += count
        }
        return true
    }

    /// Sleeps until `deadline`, unless woken by a full batch or a stop.
    private func sleep(until deadline: ContinuousClock.Instant) {
        let wait = clock.now.duration(to: deadline)
        guard wait > .zero else { return }
        let (seconds, attoseconds) = wait.components
        queue.thread.sleep(until: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)))
    }

    /// Closes the queue if it is empty, in the same lock as the last look, so no record can slip in after it
    /// (nil: done); else takes what came and hands it to the machine.
    private mutating func finishIfEmpty() -> HitWriterStateMachine.Action? {
        let closed = queue.state.withLock { state -> Bool in
            guard state.queue.isEmpty else { return false }
            state.isClosed = true
            return true
        }
        guard !closed else { return nil }
        let count = take()
        return machine.taken(count, now: clock.now)
    }

    /// The database stayed down past the drain timeout: everything left goes to the spool for the next start.
    private mutating func spoolTheRest() {
        let rest = queue.state.withLock { state -> [Record] in
            state.isClosed = true
            let rest = state.queue
            state.queue = []
            state.held += rest.count
            return rest
        }
        backlog.append(contentsOf: rest)
        if appendBacklogToSpool() {
            queue.logger.warning(
                "database unavailable at shutdown; \(queue.noun.plural) left in the spool",
                metadata: ["\(queue.noun.plural).spooled": "\(queue.state.withLock { $0.spooled })"])
        } else {
            let lost = backlogCount
            queue.state.withLock { state in
                state.held -= lost
                state.dropped += lost
            }
            queue.logger.critical(
                "\(queue.noun.plural) lost at shutdown: the database and the spool are both unavailable",
                metadata: ["\(queue.noun.plural).dropped": "\(lost)"])
        }
    }
}
