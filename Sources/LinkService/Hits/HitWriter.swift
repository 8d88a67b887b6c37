import Foundation
import Postgres

/// The hit writer thread: performs what `HitWriterStateMachine` decides, and reports back what happened.
/// Everything here runs on that one thread, so it needs no lock; it meets the request threads only in
/// `HitBatcher.state`. It holds the hits the machine counts: the backlog (taken from the queue) and the
/// hits loaded from the spool for a replay.
struct HitWriter {
    private let batcher: HitBatcher
    private let clock = ContinuousClock()
    private var machine: HitWriterStateMachine
    /// Hits taken from the queue and not yet written or spooled: `backlog[backlogStart...]`.
    private var backlog: [Hit] = []
    private var backlogStart = 0
    /// Spooled hits being replayed: `loaded[loadedStart...]`.
    private var loaded: [Hit] = []
    private var loadedStart = 0
    /// The queue's previous buffer, emptied with its capacity kept: the next `take` hands it back to the request
    /// threads, so appending under the lock never regrows the queue from nothing (each doubling copied every
    /// queued hit while the other threads waited for the lock).
    private var spare: [Hit] = []
    private var knownPartitions: Set<Int64> = []
    private var campaigns: HitCampaignLimit
    private var nextMaintenance: ContinuousClock.Instant
    private var maintainedDay: Int64 = -1
    /// The last refusal of the database, for the log line of a dropped hit.
    private var lastRejection: PostgresError?
    private var stopSeen = false

    init(batcher: HitBatcher) {
        self.batcher = batcher
        campaigns = HitCampaignLimit(perHour: batcher.configuration.campaignsPerHour)
        let now = clock.now
        machine = HitWriterStateMachine(
            limits: .init(batcher.configuration, drainTimeout: batcher.drainTimeout),
            spooled: batcher.spool.isEmpty ? 0 : max(1, batcher.spool.count), now: now)
        nextMaintenance = now
    }

    private var configuration: HitsConfiguration { batcher.configuration }
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
        if !stopSeen, batcher.thread.isStopping {
            stopSeen = true
            return machine.stop(now: clock.now)
        }
        return machine.tick(now: clock.now)
    }

    /// Moves everything queued to the backlog (one swap of buffers under the lock).
    private mutating func take() -> Int {
        var buffer = spare
        spare = []
        batcher.state.withLock { state in
            swap(&state.queue, &buffer)
            state.held += buffer.count
        }
        if backlogStart > 0, backlogStart * 2 > backlog.count {
            backlog.removeFirst(backlogStart)
            backlogStart = 0
        }
        let count = buffer.count
        if backlogCount == 0 {
            // The usual case: the taken buffer becomes the backlog (its hits moved, not copied and released), and the
            // backlog's emptied storage the spare.
            backlog.removeAll(keepingCapacity: true)
            backlogStart = 0
            swap(&backlog, &buffer)
        } else {
            backlog.append(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
        }
        // Kept for the next swap unless a burst made it larger than a batch.
        if buffer.capacity <= configuration.maxBatchSize {
            spare = buffer
        }
        return count
    }

    /// Partitions ahead, retention and salts: at start, hourly, and when the UTC day changes.
    mutating func maintainIfDue() {
        let today = VisitorHasher.day(of: Date())
        guard clock.now >= nextMaintenance || today != maintainedDay, machine.mayUseDatabase(at: clock.now) else { return }
        do {
            let result = try batcher.store.maintain()
            knownPartitions = result.partitions
            batcher.visitors.install(result.salts)
            maintainedDay = today
            nextMaintenance = clock.now + .seconds(3600)
            campaigns.forget(before: Int64((Date().timeIntervalSince1970 / 3600).rounded(.down)) - 1)
        } catch {
            batcher.logger.warning("hit maintenance failed; will retry", metadata: ["error": "\(error)"])
            nextMaintenance = clock.now + .seconds(5)
            maintainedDay = today // retried by the timer, not on every cycle
        }
    }

    private mutating func replay(limit: Int) -> HitWriterStateMachine.Action {
        do {
            let hits = try batcher.spool.peek(limit: limit) ?? []
            loaded = hits
            loadedStart = 0
            return machine.loaded(hits.count, now: clock.now)
        } catch {
            batcher.logger.error("cannot read the spool", metadata: ["error": "\(error)"])
            return unavailable(error)
        }
    }

    private mutating func write(_ source: HitWriterStateMachine.Source, count: Int, pacing: HitPacing) -> HitWriterStateMachine.Action {
        let hits = source == .backlog ? backlog[backlogStart..<backlogStart + count] : loaded[loadedStart..<loadedStart + count]
        do {
            try batcher.store.write(hits, pacing: pacing, knownPartitions: &knownPartitions, campaigns: &campaigns)
        } catch {
            guard case .rejected(let rejection) = error else { return unavailable(error) }
            lastRejection = rejection
            knownPartitions = [] // a missing partition is class 23 too: re-create before judging the rows
            return machine.rejected(now: clock.now)
        }
        return release(source, count: count, written: count)
    }

    private mutating func drop(_ source: HitWriterStateMachine.Source, count: Int) -> HitWriterStateMachine.Action {
        let first = source == .backlog ? backlog[backlogStart] : loaded[loadedStart]
        batcher.logger.error(
            "the database rejected a hit; dropped",
            metadata: [
                "db.sqlstate": lastRejection?.sqlState?.rawValue ?? "-", "hits.host": first.hostname,
            ])
        return release(source, count: count, written: 0)
    }

    /// Lets the first `count` hits of `source` go (written, or dropped) and counts them.
    private mutating func release(_ source: HitWriterStateMachine.Source, count: Int, written: Int) -> HitWriterStateMachine.Action {
        switch source {
        case .spool:
            do {
                try batcher.spool.consume(count)
            } catch {
                return unavailable(error)
            }
            loadedStart += count
        case .backlog:
            backlogStart += count
            if backlogStart == backlog.count {
                backlog.removeAll(keepingCapacity: backlog.capacity <= 4 * configuration.maxBatchSize)
                backlogStart = 0
            }
        }
        let counter: WritableKeyPath<HitQueueState, Int> = source == .spool ? \.spooled : \.held
        let wasAvailable = machine.isDatabaseAvailable
        batcher.state.withLock { state in
            state[keyPath: counter] -= count
            state.written += written
            state.dropped += count - written
        }
        let next = machine.written(now: clock.now)
        if batcher.spoolFailure != nil { checkSpool() } // until it can be written again
        if !wasAvailable {
            batcher.logger.notice(
                "hit writer: database available again", metadata: ["hits.spooled": "\(batcher.state.withLock { $0.spooled })"])
        }
        return next
    }

    private mutating func unavailable(_ error: any Error) -> HitWriterStateMachine.Action {
        if machine.isDatabaseAvailable {
            batcher.logger.warning("hit writer: database unavailable; buffering", metadata: ["error": "\(error)"])
        }
        loaded = []
        loadedStart = 0
        checkSpool()
        return machine.databaseUnavailable(now: clock.now)
    }

    /// While the database is away the spool is what keeps accepted hits through a stop: whether it can be
    /// written is checked at each failed attempt (at most every backoff), not only when the backlog spills, so
    /// `/readyz` and `/metrics` tell an operator before a stop would lose what is held in memory.
    private func checkSpool() {
        do {
            try batcher.spool.checkWritable()
            noteSpool(failure: nil)
        } catch {
            noteSpool(failure: "\(error)")
        }
    }

    /// Records whether the spool could be written, logging the change.
    private func noteSpool(failure: String?) {
        let before = batcher.state.withLock { state in
            defer { state.spoolFailure = failure }
            return state.spoolFailure
        }
        if let failure, before == nil {
            batcher.logger.critical(
                "the hit spool cannot be written: hits held in memory are lost if linkd stops before the database is back",
                metadata: ["error": "\(failure)", "hits.spool_dir": batcher.spool.directory.path])
        } else if failure == nil, before != nil {
            batcher.logger.notice("the hit spool can be written again")
        }
    }

    /// Appends the backlog to the spool.
    private mutating func spool(_ count: Int) -> HitWriterStateMachine.Action {
        guard appendBacklogToSpool() else { return machine.spoolFailed(now: clock.now) }
        return machine.spooled(now: clock.now)
    }

    private mutating func appendBacklogToSpool() -> Bool {
        let hits = backlog[backlogStart...]
        guard !hits.isEmpty else { return true }
        do {
            try batcher.spool.append(hits)
        } catch {
            batcher.logger.error(
                "cannot spool hits; keeping them in memory", metadata: ["error": "\(error)", "hits.queued": "\(hits.count)"])
            noteSpool(failure: "\(error)")
            return false
        }
        noteSpool(failure: nil)
        let count = hits.count
        backlog.removeAll()
        backlogStart = 0
        batcher.state.withLock { state in
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
        batcher.thread.sleep(until: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)))
    }

    /// Closes the queue if it is empty, in the same lock as the last look, so no hit can slip in after it
    /// (nil: done); else takes what came and hands it to the machine.
    private mutating func finishIfEmpty() -> HitWriterStateMachine.Action? {
        let closed = batcher.state.withLock { state -> Bool in
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
        let rest = batcher.state.withLock { state -> [Hit] in
            state.isClosed = true
            let rest = state.queue
            state.queue = []
            state.held += rest.count
            return rest
        }
        backlog.append(contentsOf: rest)
        if appendBacklogToSpool() {
            batcher.logger.warning(
                "database unavailable at shutdown; hits left in the spool",
                metadata: ["hits.spooled": "\(batcher.state.withLock { $0.spooled })"])
        } else {
            let lost = backlogCount
            batcher.state.withLock { state in
                state.held -= lost
                state.dropped += lost
            }
            batcher.logger.critical(
                "hits lost at shutdown: the database and the spool are both unavailable", metadata: ["hits.dropped": "\(lost)"])
        }
    }
}
