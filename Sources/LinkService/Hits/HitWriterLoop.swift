import Foundation
import Postgres

/// The writer thread's state and steps: everything here runs on that one thread, so it needs no lock;
/// it meets the request threads only in `HitBatcher.state`.
///
/// Order is kept by one invariant: spool (oldest) < backlog < queue (newest). Writes come from the spool
/// while it is not empty, else from the backlog; the backlog is only ever appended to the end of the spool.
struct HitWriterLoop {
    private let batcher: HitBatcher
    private let clock = ContinuousClock()
    /// Hits taken from the queue and not yet written or spooled: `backlog[backlogStart...]`.
    private var backlog: [Hit] = []
    private var backlogStart = 0
    /// The queue's previous buffer, emptied with its capacity kept: the next `take` hands it back to the request
    /// threads, so appending under the lock never regrows the queue from nothing (each doubling copied every
    /// queued hit while the other threads waited for the lock).
    private var spare: [Hit] = []
    private var knownPartitions: Set<Int64> = []
    private var knownVisitors: Set<HitBatchSummary.VisitorKey> = []
    private var available = true
    private var retryAt: ContinuousClock.Instant
    private var backoff = Duration.milliseconds(100)
    private var nextMaintenance: ContinuousClock.Instant
    private var maintainedDay: Int64 = -1
    private var stopRequestedAt: ContinuousClock.Instant?
    /// Whether the last cycle ended after the next flush was due: the writer is behind, and does not pace.
    private var overran = false

    init(batcher: HitBatcher) {
        self.batcher = batcher
        retryAt = clock.now
        nextMaintenance = clock.now
    }

    private var backlogCount: Int { backlog.count - backlogStart }

    /// Hits held in memory before spooling: `memoryLimit` while the database is down or the spool replays;
    /// while it is up but slower than the load, half the hard limit (spooling competes with the database
    /// for the disk, so it is the last resort before dropping, not the first answer to a burst).
    private var spillThreshold: Int {
        available && batcher.spool.isEmpty ? max(configuration.memoryLimit, configuration.hardLimit / 2) : configuration.memoryLimit
    }
    private var configuration: HitsConfiguration { batcher.configuration }

    mutating func run() {
        while true {
            let cycleStart = clock.now
            let stopping = batcher.state.withLock { $0.lifecycle == .stopping }
            if stopping, stopRequestedAt == nil { stopRequestedAt = cycleStart }
            take()
            maintainIfDue()
            drain()
            spoolOverflow()
            if stopping, finishIfDone() { return }
            // Sleep until the next flush (or retry), unless woken by a full batch or shutdown.
            var deadline = cycleStart + configuration.flushInterval
            if !available { deadline = max(deadline, min(retryAt, cycleStart + .seconds(1))) }
            if stopping { deadline = min(deadline, clock.now + .milliseconds(50)) }
            let wait = clock.now.duration(to: deadline)
            overran = wait <= .zero
            if wait > .zero {
                let (seconds, attoseconds) = wait.components
                _ = batcher.wakeUp.wait(timeout: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)))
            }
        }
    }

    /// Moves everything queued to the backlog (one swap of buffers under the lock).
    private mutating func take() {
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
        backlog.append(contentsOf: buffer)
        // Kept for the next swap unless a burst made it larger than a batch.
        if buffer.capacity <= configuration.maxBatchSize {
            buffer.removeAll(keepingCapacity: true)
            spare = buffer
        }
    }

    /// Partitions ahead, retention and salts: at start, hourly, and when the UTC day changes.
    mutating func maintainIfDue() {
        let today = VisitorHasher.day(of: Date())
        guard clock.now >= nextMaintenance || today != maintainedDay, available || clock.now >= retryAt else { return }
        do {
            let result = try batcher.store.maintain()
            knownPartitions = result.partitions
            batcher.visitors.install(result.salts)
            maintainedDay = today
            nextMaintenance = clock.now + .seconds(3600)
            knownVisitors = knownVisitors.filter { $0.day >= today - 1 }
        } catch {
            batcher.logger.warning("hit maintenance failed; will retry", metadata: ["error": "\(error)"])
            nextMaintenance = clock.now + .seconds(5)
            maintainedDay = today   // retried by the timer, not on every cycle
        }
    }

    /// Writes from the spool, then from the backlog, until both are empty or the database fails.
    private mutating func drain() {
        guard available || clock.now >= retryAt else { return }
        while !batcher.spool.isEmpty {
            let hits: [Hit]
            do {
                guard let next = try batcher.spool.peek(limit: configuration.maxBatchSize) else { break }
                hits = next
            } catch {
                batcher.logger.error("cannot read the spool", metadata: ["error": "\(error)"])
                markUnavailable(error)
                return
            }
            let spool = batcher.spool
            guard write(hits[...], countedIn: \.spooled, then: { try spool.consume(hits.count) }) else { return }
            // New hits wait in the backlog (in order) while the spool replays; spoolOverflow bounds them.
            if batcher.state.withLock({ $0.queue.count }) + backlogCount > configuration.memoryLimit { take(); spoolOverflow() }
        }
        // The hits this cycle took are written now; those arriving meanwhile wait for the next cycle (at the next
        // flush, or at once when this one took longer), so a busy writer sends a few large batches instead of
        // chasing each batch with a tail of ever smaller ones that each pay a transaction's fixed cost (seven
        // statements: most of PostgreSQL's CPU per hit under load, and ~100 transactions/s).
        //
        // A cycle's batch is paced over half the flush interval (`HitCopyData.spread`, `HitStore.write`), so the
        // database takes it in slices rather than in one burst that holds a core request threads wait for;
        // a writer behind (the last cycle overran), more than one transaction's worth and the final drain go
        // at full speed.
        var due = backlogCount
        let paced = !overran && due <= configuration.maxBatchSize && stopRequestedAt == nil
        let spread = paced ? configuration.flushInterval / 2 : .zero
        while due > 0 {
            let end = backlogStart + min(due, configuration.maxBatchSize)
            let batch = backlog[backlogStart..<end]
            guard write(batch, countedIn: \.held, spread: spread) else { return }
            due -= batch.count
            backlogStart = end
            // A database slower than the load: what piles up beyond the memory limit meanwhile goes to the
            // spool (and is written from there, in order) instead of growing toward the hard limit.
            take()
            if backlogCount > spillThreshold {
                spoolOverflow()
                return
            }
        }
        if backlogCount == 0 {
            backlog.removeAll(keepingCapacity: backlog.capacity <= 4 * configuration.maxBatchSize)
            backlogStart = 0
        }
    }

    /// Writes `hits`; a batch the database rejects as data is split in halves down to the single bad hits,
    /// which are dropped (logged and counted) so one hostile row cannot wedge the pipeline.
    /// - Returns: hits written and hits dropped.
    /// - Throws: `HitStore.Failure` `.unavailable`/`.other`, with nothing of `hits` written.
    /// Writes `batch`, lets its source go (`then`), and moves its count from the state's `source` counter to
    /// written and dropped. Returns false, the database marked unavailable, when the write or `then` fails.
    private mutating func write(_ batch: ArraySlice<Hit>, countedIn source: WritableKeyPath<HitQueueState, Int>, spread: Duration = .zero,
                                then release: () throws -> Void = {}) -> Bool {
        do {
            let (written, dropped) = try write(batch, spread: spread)
            try release()
            batcher.state.withLock { state in
                state[keyPath: source] -= batch.count
                state.written += written
                state.dropped += dropped
            }
        } catch {
            markUnavailable(error)
            return false
        }
        markAvailable()
        return true
    }

    private mutating func write(_ hits: ArraySlice<Hit>, spread: Duration = .zero) throws(HitStore.Failure) -> (Int, Int) {
        do {
            try batcher.store.write(hits, spread: spread, knownPartitions: &knownPartitions, knownVisitors: &knownVisitors)
            return (hits.count, 0)
        } catch {
            guard case .rejected(let rejection) = error else { throw error }
            knownPartitions = []   // a missing partition is class 23 too: re-create before judging the rows
            if hits.count == 1 {
                do {
                    try batcher.store.write(hits, knownPartitions: &knownPartitions, knownVisitors: &knownVisitors)
                    return (1, 0)
                } catch {
                    guard case .rejected = error else { throw error }
                    batcher.logger.error("the database rejected a hit; dropped", metadata: [
                        "db.sqlstate": rejection.sqlState?.rawValue ?? "-", "hits.host": hits.first!.hostname,
                    ])
                    return (0, 1)
                }
            }
            let middle = hits.startIndex + hits.count / 2
            let first = try write(hits[..<middle])
            let second = try write(hits[middle...])
            return (first.0 + second.0, first.1 + second.1)
        }
    }

    /// Hits beyond `memoryLimit` in memory (the database down or slower than the load, or the spool
    /// replaying) go to the spool.
    /// `force`: everything in memory goes (shutdown with the database still down).
    private mutating func spoolOverflow(force: Bool = false) {
        guard backlogCount > 0, force || backlogCount > spillThreshold else { return }
        let hits = backlog[backlogStart...]
        do {
            try batcher.spool.append(hits)
        } catch {
            batcher.logger.error("cannot spool hits; keeping them in memory", metadata: ["error": "\(error)", "hits.queued": "\(hits.count)"])
            return
        }
        let count = hits.count
        backlog.removeAll()
        backlogStart = 0
        batcher.state.withLock { state in
            state.held -= count
            state.spooled += count
            state.spooledTotal += count
        }
    }

    /// During shutdown: done when nothing is left anywhere (then the queue is closed in the same lock, so
    /// no hit can slip in after the last look), or when the database stayed down past `drainTimeout`, in
    /// which case everything left goes to the spool for the next start.
    private mutating func finishIfDone() -> Bool {
        if backlogCount == 0, batcher.spool.isEmpty {
            let closed = batcher.state.withLock { state -> Bool in
                guard state.queue.isEmpty else { return false }
                state.lifecycle = .stopped
                return true
            }
            if closed { return true }
        }
        guard !available, let stopRequestedAt, clock.now - stopRequestedAt >= batcher.drainTimeout else { return false }
        let closed = batcher.state.withLock { state -> [Hit] in
            state.lifecycle = .stopped
            let rest = state.queue
            state.queue = []
            state.held += rest.count
            return rest
        }
        backlog.append(contentsOf: closed)
        spoolOverflow(force: true)
        if backlogCount > 0 {
            let lost = backlogCount
            batcher.state.withLock { state in
                state.held -= lost
                state.dropped += lost
            }
            batcher.logger.critical("hits lost at shutdown: the database and the spool are both unavailable", metadata: ["hits.dropped": "\(lost)"])
        } else {
            batcher.logger.warning("database unavailable at shutdown; hits left in the spool", metadata: ["hits.spooled": "\(batcher.state.withLock { $0.spooled })"])
        }
        return true
    }

    private mutating func markUnavailable(_ error: any Error) {
        if available {
            batcher.logger.warning("hit writer: database unavailable; buffering", metadata: ["error": "\(error)"])
        }
        available = false
        retryAt = clock.now + backoff
        backoff = min(backoff * 2, .seconds(2))
    }

    private mutating func markAvailable() {
        if !available {
            batcher.logger.notice("hit writer: database available again", metadata: ["hits.spooled": "\(batcher.state.withLock { $0.spooled })"])
        }
        available = true
        backoff = .milliseconds(100)
    }
}
