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
/// A token is 128 random bits (libcrypto's `RAND_bytes`), handed out as 32 hex digits; only its SHA-256 is
/// stored (`click_tokens`, `migrations/0012`), as for API keys, with the link, its resolve answer, the domain
/// and an expiry. Nothing about the visitor is kept: no IP address, no user agent, no fingerprint.
///
/// Request threads never wait on the database: `issue` queues the row in a per-thread stripe and a thread of
/// the service's own inserts what is queued every `interval`; a claim writes out what is queued first
/// (`flush`), so a token is claimable as soon as its page is sent. The same thread deletes tokens an
/// `expiredGrace` after they expired (until then a claim answers 410, after it 404).
final class ClickTokens: BackgroundService {
    let name = "click tokens"
    static let threads = 1

    /// One token's row, queued until it is inserted.
    struct Pending: Sendable {
        let hash: String
        let workspace: UUID
        let domain: UUID
        let url: String
        let platform: String
        let answer: [UInt8]
        let createdMicros: Int64
        let expiresMicros: Int64
    }

    private final class Stripe: Sendable {
        let rows = Mutex<[Pending]>([])
    }

    /// Rows queued at most (all stripes); beyond it a page goes out without a token and `dropped` counts it.
    static let capacity = 100_000

    private let stripes: [Stripe]
    private let assignment: StripeAssignment
    private let queued = Atomic<Int>(0)
    private let pool: ConnectionPool
    private let logger: Logger
    private let interval: DispatchTimeInterval
    private let sweepInterval: TimeInterval
    /// How long an expired token stays (claims answer 410 meanwhile) before the sweep deletes it.
    let expiredGrace: TimeInterval
    /// Serialises inserts: the flusher thread and claims both write out the queue.
    private let writing = Mutex<Void>(())
    private let thread = ServiceThread(name: "linkd.click-tokens")
    private let issuedTotal: Counter
    private let droppedTotal: Counter
    private let deletedTotal: Counter

    init(
        pool: ConnectionPool, metrics: MetricsRegistry, logger: Logger, interval: DispatchTimeInterval = .milliseconds(200),
        sweepInterval: TimeInterval = 60, expiredGrace: TimeInterval = 3600
    ) {
        self.pool = pool
        self.logger = logger
        assignment = metrics.stripes
        stripes = (0..<metrics.stripes.count).map { _ in Stripe() }
        self.interval = interval
        self.sweepInterval = sweepInterval
        self.expiredGrace = expiredGrace
        issuedTotal = metrics.counter("linkd_click_tokens_issued_total", help: "Click tokens put on landing pages.")
        droppedTotal = metrics.counter("linkd_click_tokens_dropped_total", help: "Landing pages sent without a token: the queue was full.")
        deletedTotal = metrics.counter("linkd_click_tokens_deleted_total", help: "Expired click tokens deleted.")
    }

    var isHealthy: Bool { thread.isRunning }

    /// Starts the thread: inserts what is queued every `interval`, deletes expired tokens every `sweepInterval`.
    func start() {
        thread.start { [self] in
            var lastSweep = Date.distantPast
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

    /// Inserts what is queued and stops. Idempotent.
    func shutdown() {
        thread.stop { flush() }
    }

    /// A new token for a landing page of `url` (whose resolve answer is `answer`), claimable for `ttl` seconds;
    /// nil when the queue is full.
    func issue(workspace: UUID, domain: UUID, url: String, platform: String, answer: [UInt8], ttl: Int) -> String? {
        guard queued.add(1, ordering: .relaxed).newValue <= Self.capacity else {
            queued.subtract(1, ordering: .relaxed)
            droppedTotal.increment()
            return nil
        }
        let token = Self.generate()
        let now = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
        let row = Pending(
            hash: Self.hash(token), workspace: workspace, domain: domain, url: url, platform: platform, answer: answer,
            createdMicros: now, expiresMicros: now + Int64(ttl) * 1_000_000)
        stripes[assignment.current].rows.withLock { $0.append(row) }
        issuedTotal.increment()
        return token
    }

    /// 32 lower-case hex digits of 128 random bits.
    static func generate() -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        // RAND_bytes(3) fails only when the CSPRNG is not seeded, which nothing here can repair.
        precondition(RAND_bytes(&bytes, 16) == 1, "RAND_bytes failed")
        return Hex.encode(bytes)
    }

    /// The stored form: SHA-256 of the token's text, in hex.
    static func hash(_ token: String) -> String { SHA256.hex(Array(token.utf8)) }

    /// Inserts every queued row (rows of a domain deleted meanwhile are left out).
    func flush() {
        writing.withLock { _ in
            var rows: [Pending] = []
            for stripe in stripes {
                rows += stripe.rows.withLock { taken in
                    defer { taken.removeAll() }; return taken
                }
            }
            guard !rows.isEmpty else { return }
            var requeued = false
            defer { if !requeued { queued.subtract(rows.count, ordering: .relaxed) } }
            do {
                try pool.withConnection { connection in
                    try ClickTokenStore.insert(
                        hashes: rows.map(\.hash), workspaces: rows.map { $0.workspace.canonicalText },
                        domains: rows.map { $0.domain.canonicalText },
                        urls: rows.map { Hit.clean($0.url) }, platforms: rows.map(\.platform),
                        answers: rows.map { String(decoding: $0.answer, as: UTF8.self) },
                        createdMicros: rows.map(\.createdMicros), expiresMicros: rows.map(\.expiresMicros), on: connection)
                }
            } catch let error as PostgresError where error.code == .mustNotWait {
                // A claim on an HTTP worker: it runs again where it may wait (`Handoff`), and inserts the rows then.
                stripes[assignment.current].rows.withLock { $0.append(contentsOf: rows) }
                requeued = true
            } catch {
                logger.warning("cannot store click tokens", metadata: ["error": "\(error)", "tokens.count": "\(rows.count)"])
            }
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
