/// A pipeline writer's decisions (the hits', and the events', which share the mechanism), with no I/O and no clock of
/// its own: the runner (`RecordWriter`) reports what happened (an event, with the time it happened) and performs the
/// action it gets back.
///
/// It owns the order hits reach the database in, spool (oldest) < backlog < queue (newest): writes come from
/// the spool while it holds hits, else from the backlog, and the backlog only ever goes to the end of the
/// spool. It owns the back-off while the database is unavailable, the split of a batch the database refuses
/// as data (halves down to single hits, each tried twice, then dropped), when to spool, the pacing of a
/// cycle's batch, and when a stop is done. `docs/HITS.md` describes the behaviour.
///
/// A cycle: `tick` (or `stop`) → `take` → replays of the spool → the cycle's backlog batches → spool what is
/// over the threshold → `finish` when stopping and done, else `sleep` until the next flush.
struct HitWriterStateMachine {
    typealias Instant = ContinuousClock.Instant

    /// The limits it decides by (from `HitsConfiguration`).
    struct Limits: Sendable, Equatable {
        var maxBatchSize: Int
        var memoryLimit: Int
        var hardLimit: Int
        var flushInterval: Duration
        /// How long a stop keeps retrying an unavailable database before spooling what is left.
        var drainTimeout: Duration

        init(maxBatchSize: Int, memoryLimit: Int, hardLimit: Int, flushInterval: Duration, drainTimeout: Duration) {
            self.maxBatchSize = maxBatchSize
            self.memoryLimit = memoryLimit
            self.hardLimit = hardLimit
            self.flushInterval = flushInterval
            self.drainTimeout = drainTimeout
        }

        init(_ configuration: HitsConfiguration, drainTimeout: Duration) {
            self.init(
                maxBatchSize: configuration.maxBatchSize, memoryLimit: configuration.memoryLimit, hardLimit: configuration.hardLimit,
                flushInterval: configuration.flushInterval, drainTimeout: drainTimeout)
        }
    }

    /// Where the hits of a write come from: loaded from the spool (`replay`), or the backlog (taken from the queue).
    enum Source: Sendable, Equatable { case spool, backlog }

    /// How a stop ends.
    enum Finish: Sendable, Equatable {
        /// Nothing is left: close the queue if it is still empty (else take it and answer `taken`).
        case drained
        /// The database stayed unavailable past the drain timeout: close the queue, spool everything left.
        case spoolingTheRest
    }

    enum Action: Sendable, Equatable {
        /// Move what is queued to the end of the backlog; answer `taken`.
        case take
        /// Load up to `limit` of the oldest spooled hits; answer `loaded` (or `databaseUnavailable`).
        case replay(limit: Int)
        /// Write the first `count` hits of `source` in one transaction; answer `written`, `rejected` or
        /// `databaseUnavailable`. A written hit leaves its source.
        case write(Source, count: Int, pacing: HitPacing)
        /// Drop the first `count` hits of `source` (refused by the database, twice): log and count them; answer
        /// `written` (or `databaseUnavailable` when the spool cannot record it).
        case drop(Source, count: Int)
        /// Append the whole backlog (`count` hits) to the spool; answer `spooled` or `spoolFailed`.
        case spool(count: Int)
        /// Wait until `until` unless woken; answer `tick`, or `stop` once a stop was asked.
        case sleep(until: Instant)
        /// The writer is done (`.drained` may answer `taken` instead).
        case finish(Finish)
    }

    /// What the machine waits for.
    enum State: Sendable, Equatable {
        /// Asleep (or not started): waiting for `tick` or `stop`.
        case idle
        /// `take` at the start of a cycle.
        case startingCycle
        /// `replay` sent.
        case loading
        /// `write` or `drop` of the first piece of a batch sent.
        case writing(Write)
        /// `take` after a batch from `Source` was written: then the spill threshold is checked.
        case takingAfterBatch(Source)
        /// `spool` sent; then `AfterSpool`.
        case spooling(AfterSpool)
        /// `finish(.drained)` sent: `taken` means the queue was not empty after all.
        case finishing
        /// `finish` answered with nothing: no event is expected any more.
        case finished
    }

    /// A batch being written: its pieces (sizes, in order; the first is in flight), split when refused.
    struct Write: Sendable, Equatable {
        var source: Source
        var pieces: [Int]
        /// Whether the single hit in flight was refused once already.
        var retried = false
    }

    /// Where a cycle goes on after spooling.
    enum AfterSpool: Sendable, Equatable {
        /// Back to replaying (the backlog went to the end of the spool).
        case replay
        /// The cycle's backlog batches stop: to the check after the drain.
        case endDrain
        /// After that check: finish or sleep.
        case finishOrSleep
    }

    static let firstBackoff = Duration.milliseconds(100)
    static let longestBackoff = Duration.seconds(2)

    let limits: Limits
    private(set) var state = State.idle
    /// Hits taken from the queue, not yet written or spooled.
    private(set) var backlog = 0
    /// Hits in the spool, those loaded for a replay included.
    private(set) var spooled: Int
    /// Hits loaded from the spool and not yet written.
    private(set) var loaded = 0
    private(set) var isDatabaseAvailable = true
    private(set) var retryAt: Instant
    private(set) var backoff = HitWriterStateMachine.firstBackoff
    private(set) var stopAskedAt: Instant?
    /// Whether the last cycle ended after the next flush was due: the writer is behind, and does not pace.
    private(set) var overran = false
    private var cycleStart: Instant
    /// Backlog hits this cycle still writes (the backlog when its batches began); later arrivals wait.
    private var due = 0
    private var cyclePacing = HitPacing.fullSpeed

    /// - Parameters:
    ///   - spooled: hits in the spool at start (left by an earlier process).
    ///   - now: the time at start.
    init(limits: Limits, spooled: Int, now: Instant) {
        self.limits = limits
        self.spooled = spooled
        retryAt = now
        cycleStart = now
    }

    /// Whether the database may be tried at `now` (available, or its back-off is over): maintenance asks too.
    func mayUseDatabase(at now: Instant) -> Bool { isDatabaseAvailable || now >= retryAt }

    /// Hits held in memory before spooling: `memoryLimit` while the database is down or the spool holds hits;
    /// while it is up but slower than the load, half the hard limit (spooling competes with the database for
    /// the disk, so it is the last resort before dropping, not the first answer to a burst).
    var spillThreshold: Int {
        isDatabaseAvailable && spooled == 0 ? max(limits.memoryLimit, limits.hardLimit / 2) : limits.memoryLimit
    }

    // MARK: - Events

    /// The sleep ended (the flush is due, or the writer was woken): a cycle starts.
    mutating func tick(now: Instant) -> Action {
        precondition(state == .idle, "tick while \(state)")
        return beginCycle(now: now)
    }

    /// A stop was asked (seen on waking; also the first event of a writer that never ran): the cycle that
    /// starts writes everything out, at full speed.
    mutating func stop(now: Instant) -> Action {
        precondition(state == .idle, "stop while \(state)")
        if stopAskedAt == nil { stopAskedAt = now }
        return beginCycle(now: now)
    }

    /// `count` hits were moved from the queue to the end of the backlog.
    mutating func taken(_ count: Int, now: Instant) -> Action {
        backlog += count
        switch state {
        case .startingCycle, .finishing:
            return drain(now: now)
        case .takingAfterBatch(.spool):
            guard backlog > spillThreshold else { return replayOrBacklog(now: now) }
            return spoolBacklog(then: .replay)
        case .takingAfterBatch(.backlog):
            guard backlog > spillThreshold else { return nextBacklogBatch(now: now) }
            return spoolBacklog(then: .endDrain)
        default:
            preconditionFailure("taken while \(state)")
        }
    }

    /// `count` hits were loaded from the spool (zero: it is empty).
    mutating func loaded(_ count: Int, now: Instant) -> Action {
        precondition(state == .loading, "loaded while \(state)")
        guard count > 0 else {
            spooled = 0
            return startBacklog(now: now)
        }
        loaded = count
        spooled = max(spooled, count)
        return startWrite(.spool, count: count, pacing: .fullSpeed)
    }

    /// The piece in flight was committed (or dropped): its hits left their source.
    mutating func written(now: Instant) -> Action {
        guard case .writing(var write) = state else { preconditionFailure("written while \(state)") }
        markAvailable()
        let count = write.pieces.removeFirst()
        switch write.source {
        case .spool:
            loaded -= count
            spooled -= count
        case .backlog:
            backlog -= count
            due -= count
        }
        guard let next = write.pieces.first else {
            state = .takingAfterBatch(write.source)
            return .take
        }
        write.retried = false
        state = .writing(write)
        return .write(write.source, count: next, pacing: .fullSpeed)
    }

    /// The database refused the piece in flight as data: halves, down to single hits; a single hit is tried
    /// once more (a missing partition is refused alike, and the runner re-creates partitions), then dropped.
    mutating func rejected(now: Instant) -> Action {
        guard case .writing(var write) = state else { preconditionFailure("rejected while \(state)") }
        let piece = write.pieces[0]
        if piece > 1 {
            write.pieces.replaceSubrange(0...0, with: [piece / 2, piece - piece / 2])
        } else if !write.retried {
            write.retried = true
        } else {
            state = .writing(write)
            return .drop(write.source, count: 1)
        }
        state = .writing(write)
        return .write(write.source, count: write.pieces[0], pacing: .fullSpeed)
    }

    /// The last write, replay or drop failed for want of the database (or the spool's bookkeeping): nothing of
    /// it left its source, the loaded spool hits are let go (read again later), and the database is tried
    /// again after the back-off.
    mutating func databaseUnavailable(now: Instant) -> Action {
        switch state {
        case .writing, .loading: break
        default: preconditionFailure("databaseUnavailable while \(state)")
        }
        isDatabaseAvailable = false
        retryAt = now + backoff
        backoff = min(backoff * 2, Self.longestBackoff)
        loaded = 0
        return endDrain(now: now)
    }

    /// The backlog went to the end of the spool.
    mutating func spooled(now: Instant) -> Action {
        guard case .spooling(let next) = state else { preconditionFailure("spooled while \(state)") }
        spooled += backlog
        backlog = 0
        due = 0
        return afterSpool(next, now: now)
    }

    /// The spool could not take the backlog (a full disk): it stays in memory.
    mutating func spoolFailed(now: Instant) -> Action {
        guard case .spooling(let next) = state else { preconditionFailure("spoolFailed while \(state)") }
        return afterSpool(next, now: now)
    }

    // MARK: - Steps

    private mutating func beginCycle(now: Instant) -> Action {
        cycleStart = now
        state = .startingCycle
        return .take
    }

    private mutating func drain(now: Instant) -> Action {
        guard mayUseDatabase(at: now) else { return endDrain(now: now) }
        return replayOrBacklog(now: now)
    }

    private mutating func replayOrBacklog(now: Instant) -> Action {
        guard spooled > 0 else { return startBacklog(now: now) }
        state = .loading
        return .replay(limit: limits.maxBatchSize)
    }

    /// The hits this cycle took are written now; those arriving meanwhile wait for the next cycle (at the next
    /// flush, or at once when this one took longer), so a busy writer sends a few large batches instead of
    /// chasing each with a tail of ever smaller ones that each pay a transaction's fixed cost. The cycle's batch
    /// is paced over half the flush interval; a writer behind (the last cycle overran), more than one
    /// transaction's worth, and a stop go at full speed.
    private mutating func startBacklog(now: Instant) -> Action {
        due = backlog
        let paced = !overran && due <= limits.maxBatchSize && stopAskedAt == nil
        cyclePacing = paced ? .spread(over: limits.flushInterval / 2) : .fullSpeed
        return nextBacklogBatch(now: now)
    }

    private mutating func nextBacklogBatch(now: Instant) -> Action {
        let count = min(due, backlog, limits.maxBatchSize)
        guard count > 0 else { return endDrain(now: now) }
        return startWrite(.backlog, count: count, pacing: cyclePacing)
    }

    private mutating func startWrite(_ source: Source, count: Int, pacing: HitPacing) -> Action {
        state = .writing(Write(source: source, pieces: [count]))
        return .write(source, count: count, pacing: pacing)
    }

    private mutating func spoolBacklog(then next: AfterSpool) -> Action {
        state = .spooling(next)
        return .spool(count: backlog)
    }

    private mutating func afterSpool(_ next: AfterSpool, now: Instant) -> Action {
        switch next {
        case .replay: return replayOrBacklog(now: now)
        case .endDrain: return endDrain(now: now)
        case .finishOrSleep: return finishOrSleep(now: now)
        }
    }

    /// Hits beyond the spill threshold in memory (the database down or slower than the load, or the spool
    /// replaying) go to the spool.
    private mutating func endDrain(now: Instant) -> Action {
        guard backlog > 0, backlog > spillThreshold else { return finishOrSleep(now: now) }
        return spoolBacklog(then: .finishOrSleep)
    }

    /// Stopping: done when nothing is left (the runner closes the queue in the same lock as its last look),
    /// or when the database stayed down past the drain timeout (everything left goes to the spool). Otherwise
    /// sleep until the next flush, or the next retry (at most a second away) while the database is down; a
    /// stop looks again within 50 ms.
    private mutating func finishOrSleep(now: Instant) -> Action {
        if let stopAskedAt {
            if backlog == 0, spooled == 0 {
                state = .finishing
                return .finish(.drained)
            }
            if !isDatabaseAvailable, now - stopAskedAt >= limits.drainTimeout {
                state = .finished
                return .finish(.spoolingTheRest)
            }
        }
        var deadline = cycleStart + limits.flushInterval
        if !isDatabaseAvailable { deadline = max(deadline, min(retryAt, cycleStart + .seconds(1))) }
        if stopAskedAt != nil { deadline = min(deadline, now + .milliseconds(50)) }
        overran = deadline <= now
        state = .idle
        return .sleep(until: deadline)
    }

    private mutating func markAvailable() {
        isDatabaseAvailable = true
        backoff = Self.firstBackoff
    }
}
