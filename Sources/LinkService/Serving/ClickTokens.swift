import ByteText
import CCrypto
import Foundation
import LinkKit
import Observability
import Postgres
import Synchronization

/// Deferred deep links (docs/LANDING.md): a click token for each landing page shown to a mobile browser, claimed
/// once by the app after it is installed.
///
/// A token is 128 random bits (libcrypto's `RAND_bytes`, drawn for 256 tokens at a time per stripe), handed out as
/// 32 hex digits; only its SHA-256 is stored (`click_tokens`, `migrations/0012`), as for API keys, with the link, its
/// resolve answer, the domain and an expiry. Of the visitor only the click's country and OS family are kept (what
/// its hit records, for the install claiming the token to be counted under them: docs/EVENTS.md): no IP address, no
/// user agent, no fingerprint.
///
/// Request threads never wait on the database: `issue` queues the token's row in a per-thread stripe, as the
/// `COPY` line it will be stored as, and appends that line to the stripe's journal file (`ClickTokenJournal`)
/// before the page is sent; a thread of the service's own stores what is queued every `interval` with one `COPY`,
/// then removes the journal files of what it stored. A claim writes out what is queued first (`flush`), so a token
/// is claimable as soon as its page is sent; a process killed before its rows were stored leaves them in the
/// journal, and the next one stores them before anything else. The same thread deletes tokens an `expiredGrace`
/// after they expired (until then a claim answers 410, after it 404).
final class ClickTokens: SingleThreadService {
    let name = "click tokens"

    /// A stripe's queued rows (`COPY` lines) and the journal file they are appended to.
    private struct Queue {
        var rows: [[UInt8]] = []
        var file: ClickTokenJournal.File?
    }

    private final class Stripe: Sendable {
        let queue = Mutex(Queue())
        let random = Mutex(RandomBytes())
    }

    /// Random bytes drawn ahead for a stripe's tokens: one `RAND_bytes` call serves 256 tokens, where a call per token
    /// cost more than the rest of the token. Each token's bytes are zeroed as they are taken.
    private struct RandomBytes {
        private var bytes = [UInt8](repeating: 0, count: 4096)
        private var next = 4096

        /// The next 16 bytes, written to `out`.
        mutating func take(into out: UnsafeMutableRawBufferPointer) {
            if next == bytes.count {
                // RAND_bytes(3) fails only when the CSPRNG is not seeded, which nothing here can repair.
                precondition(RAND_bytes(&bytes, Int32(bytes.count)) == 1, "RAND_bytes failed")
                next = 0
            }
            let start = next
            bytes.withUnsafeMutableBytes { bytes in
                let taken = UnsafeMutableRawBufferPointer(rebasing: bytes[start..<start + 16])
                out.copyMemory(from: UnsafeRawBufferPointer(taken))
                taken.initializeMemory(as: UInt8.self, repeating: 0)
            }
            next += 16
        }
    }

    /// What the writer took and has not stored yet, and the journal files that hold it.
    private struct Backlog {
        var rows: [[UInt8]] = []
        var files: [String] = []
    }

    /// Rows queued at most (all stripes); beyond it a page goes out without a token and `dropped` counts it.
    static let capacity = 100_000

    private let stripes: [Stripe]
    private let assignment: StripeAssignment
    private let queued = Atomic<Int>(0)
    private let pool: ConnectionPool
    private let journal: ClickTokenJournal?
    private let logger: Logger
    private let interval: DispatchTimeInterval
    private let sweepInterval: TimeInterval
    /// How long an expired token stays (claims answer 410 meanwhile) before the sweep deletes it.
    let expiredGrace: TimeInterval
    /// Serialises writes (the flusher thread and claims both write out the queue) and holds what they took.
    private let writing = Mutex(Backlog())
    let thread = ServiceThread(name: "linkd.click-tokens")
    private let issuedTotal: Counter
    private let droppedTotal: Counter
    private let deletedTotal: Counter

    /// - Parameter journal: where the rows not yet stored are kept on disk (nil: in memory only, for tests and
    ///   embedded uses without a spool directory); the rows an earlier process left there are stored first.
    init(
        pool: ConnectionPool, metrics: MetricsRegistry, logger: Logger, journal: ClickTokenJournal? = nil,
        interval: DispatchTimeInterval = .milliseconds(200), sweepInterval: TimeInterval = 60, expiredGrace: TimeInterval = 3600
    ) {
        self.pool = pool
        self.logger = logger
        self.journal = journal
        assignment = metrics.stripes
        stripes = (0..<metrics.stripes.count).map { _ in Stripe() }
        self.interval = interval
        self.sweepInterval = sweepInterval
        self.expiredGrace = expiredGrace
        issuedTotal = metrics.counter("linkd_click_tokens_issued_total", help: "Click tokens put on landing pages.")
        droppedTotal = metrics.counter(
            "linkd_click_tokens_dropped_total",
            help: "Landing pages sent without a token: the queue was full, or the journal could not be written.")
        deletedTotal = metrics.counter("linkd_click_tokens_deleted_total", help: "Expired click tokens deleted.")
        if let journal {
            let (paths, rows) = journal.leftovers()
            writing.withLock { $0 = Backlog(rows: rows, files: paths) }
            queued.add(rows.count, ordering: .relaxed)
            if !rows.isEmpty { logger.info("storing click tokens an earlier process left", metadata: ["tokens.count": "\(rows.count)"]) }
            for stripe in stripes {
                let file = journal.create()
                stripe.queue.withLock { $0.file = file }
            }
        }
    }

    /// Starts the thread: stores what is queued every `interval`, deletes expired tokens every `sweepInterval`.
    func start() {
        thread.start { [self] in
            var lastSweep = Date.distantPast
            flush()
            while !thread.sleep(until: .now() + interval) {
                flush()
                if Date().timeIntervalSince(lastSweep) >= sweepInterval {
                    lastSweep = Date()
                    _ = try? deleteExpired()
                }
            }
            flush()
        }
    }

    /// Stores what is queued and stops. Idempotent.
    func shutdown() {
        thread.stop { flush() }
    }

    /// A new token for a landing page whose link and answer `stem` holds, claimable for `ttl` seconds, of a click from
    /// `country` on `os`; nil when the queue is full or the journal cannot be written (the page then goes out without
    /// one).
    func issue(_ stem: Stem, country: String? = nil, os: String? = nil, ttl: Int) -> String? {
        guard queued.add(1, ordering: .relaxed).newValue <= Self.capacity else {
            queued.subtract(1, ordering: .relaxed)
            droppedTotal.increment()
            return nil
        }
        let stripe = stripes[assignment.current]
        let token = withUnsafeTemporaryAllocation(byteCount: 16, alignment: 8) { random in
            stripe.random.withLock { $0.take(into: random) }
            defer { random.initializeMemory(as: UInt8.self, repeating: 0) }
            return Hex.encode(random)
        }
        let now = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
        let row = Self.row(
            token: token, stem: stem, country: country, os: os, createdMicros: now,
            expiresMicros: now + Int64(ttl) * 1_000_000)
        let file = stripe.queue.withLock { queue in
            queue.rows.append(row)
            return queue.file
        }
        // Journaled before the page is sent; a row queued without its line is stored all the same, but its token is
        // not handed out (it could be lost with the process).
        if journal != nil, file?.append(row) != true {
            droppedTotal.increment()
            return nil
        }
        issuedTotal.increment()
        return token
    }

    /// 32 lower-case hex digits of 128 random bits, drawn on their own (`issue` takes its bytes from its stripe's).
    static func generate() -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        // RAND_bytes(3) fails only when the CSPRNG is not seeded, which nothing here can repair.
        precondition(RAND_bytes(&bytes, 16) == 1, "RAND_bytes failed")
        return Hex.encode(bytes)
    }

    /// The stored form: SHA-256 of the token's text, in hex.
    static func hash(_ token: String) -> String { SHA256.hex(Array(token.utf8)) }

    /// Stores what the last write left (an outage, an earlier process's journal), then every queued row, and
    /// removes the journal files of what it stored. While the database is away nothing more is taken: the rows wait
    /// in their stripes and journal files, and are stored at the first write after it returns.
    func flush() {
        writing.withLock { backlog in
            // A backlog first, then what was queued meanwhile (a claim must find every token whose page was sent).
            let rounds = backlog.rows.isEmpty ? 1 : 2
            for _ in 0..<rounds {
                if backlog.rows.isEmpty { take(into: &backlog) }
                guard !backlog.rows.isEmpty else {
                    journal?.remove(backlog.files)
                    backlog.files = []
                    return
                }
                do {
                    try store(backlog.rows)
                } catch let error as PostgresError where error.code == .mustNotWait {
                    return // a claim on an HTTP worker: it runs again where it may wait (`Handoff`), and stores them then
                } catch let error as PostgresError where error.sqlState.map({ ["22", "23"].contains($0.errorClass) }) == true {
                    logger.error(
                        "click tokens refused by the database, dropped",
                        metadata: ["error": "\(error)", "tokens.count": "\(backlog.rows.count)"])
                } catch {
                    logger.warning(
                        "cannot store click tokens yet", metadata: ["error": "\(error)", "tokens.count": "\(backlog.rows.count)"])
                    return
                }
                queued.subtract(backlog.rows.count, ordering: .relaxed)
                journal?.remove(backlog.files)
                backlog = Backlog()
            }
        }
    }

    /// Takes every stripe's queued rows, swapping in a new journal file for the one that holds them.
    private func take(into backlog: inout Backlog) {
        for stripe in stripes {
            let (empty, fileless) = stripe.queue.withLock { ($0.rows.isEmpty, $0.file == nil) }
            guard !empty || (journal != nil && fileless) else { continue }
            let fresh = journal?.create() // before the lock: no I/O under it
            let (rows, old) = stripe.queue.withLock { queue in
                defer { (queue.rows, queue.file) = ([], fresh) }
                return (queue.rows, queue.file)
            }
            backlog.rows += rows
            if let old { backlog.files.append(old.path) }
        }
    }

    /// One `COPY`; when it is refused for a row stored already (a journal's rows stored before the process died, a
    /// commit whose answer was lost) or of a domain deleted meanwhile, the rows that can be stored, without it.
    private func store(_ rows: [[UInt8]]) throws {
        do {
            try pool.withConnection { try ClickTokenStore.copy(rows, on: $0) }
        } catch let error as PostgresError where error.sqlState?.errorClass == "23" {
            try pool.withTransaction { try ClickTokenStore.insertNew(rows, on: $0) }
        }
    }

    /// Deletes tokens that expired more than `expiredGrace` ago; returns how many.
    @discardableResult
    func deleteExpired() throws -> Int {
        let deleted = try pool.withConnection { try ClickTokenStore.deleteExpired(grace: expiredGrace, on: $0) }
        deletedTotal.increment(by: UInt64(deleted))
        return deleted
    }

    /// What a claim found.
    enum Claim {
        /// First claim: the link, its platform and the stored resolve answer.
        case claimed(url: String, platform: String, workspace: UUID, answer: String)
        case alreadyClaimed, expired, unknown
    }

    /// Claims `token` once; a claim queues `deferred.claimed` for the workspace's subscribers in its transaction.
    func claim(_ token: String) throws -> Claim {
        flush()
        let hash = Self.hash(token)
        return try pool.withTransaction { connection in
            if let claimed = try ClickTokenStore.claim(hash, on: connection) {
                try WebhookStore.enqueue(
                    [
                        WebhookEvent(
                            .deferredClaimed, workspace: claimed.workspace,
                            data: .object([
                                "url": .string(claimed.url), "platform": .string(claimed.platform),
                                "answer": (try? JSONValue.parse(claimed.answer)) ?? .null,
                            ]))
                    ], on: connection)
                return .claimed(url: claimed.url, platform: claimed.platform, workspace: claimed.workspace, answer: claimed.answer)
            }
            guard let state = try ClickTokenStore.state(of: hash, on: connection) else { return .unknown }
            return state.claimed ? .alreadyClaimed : state.expired ? .expired : .unknown
        }
    }
}
