import Foundation
import HTTPServer
import Observability
import Postgres
import Synchronization

/// Remembers who fetched which association file version, so operators can see when Apple's CDN last
/// picked up which version. Fetches are logged at debug level, counted in `/metrics`, kept per host in
/// memory, and the latest per host and file is written to `association_fetches` every few seconds (one
/// upsert per changed host, off the request path).
final class AssociationFetchLog: SingleThreadService {
    let name = "fetch log"
    struct Fetch: Sendable, Equatable {
        let hostname: String
        let file: String
        let at: Date
        let userAgent: String
        let etag: String?
        let status: Int
    }

    private struct Key: Hashable {
        let hostname: String
        let file: AssociationFile
    }

    /// Striped by thread (the metrics' `StripeAssignment`), so the serving threads do not contend for one lock; `flush`
    /// keeps the latest fetch per host and file across the stripes.
    private final class Pending: Sendable {
        let fetches = Mutex<[Key: Fetch]>([:])
    }

    private let pending: [Pending]
    /// `linkd_association_fetches_total` by file and status: the statuses this endpoint answers, created at start
    /// (`answered` statuses, per file in `File.allCases` order).
    private static let answered = [200, 304, 404]
    private let counters: [[Counter]]
    private let pool: ConnectionPool
    private let metrics: MetricsRegistry
    private let logger: Logger
    private let interval: DispatchTimeInterval
    let thread = ServiceThread(name: "linkd.fetch-log")

    init(pool: ConnectionPool, metrics: MetricsRegistry, logger: Logger, interval: DispatchTimeInterval = .seconds(2)) {
        self.pool = pool
        self.metrics = metrics
        self.logger = logger
        self.interval = interval
        pending = (0..<metrics.stripes.count).map { _ in Pending() }
        counters = AssociationFile.allCases.map { file in
            Self.answered.map { status in Self.series(file: file, status: status, in: metrics) }
        }
    }

    /// Starts the flusher thread: a flush every `interval` until `shutdown()`.
    func start() {
        thread.start(every: interval) { [self] _ in flush() }
    }

    /// Writes what is pending and stops. Idempotent.
    func shutdown() {
        thread.stop { flush() }
    }

    func record(host: String, file: AssociationFile, request: Request, etag: String?, status: Int) {
        let header = request.headers["User-Agent"] ?? ""
        let agent = header.utf8.count <= 300 ? header : String(header.prefix(300))
        counter(file: file, status: status).increment()
        logger.debug(
            "association file fetched",
            metadata: [
                "fetch.host": host, "fetch.file": file.rawValue, "fetch.user_agent": agent, "fetch.etag": etag ?? "-",
                "fetch.status": String(status),
            ])
        guard status != 404 else { return }
        let fetch = Fetch(hostname: host, file: file.rawValue, at: Date(), userAgent: agent, etag: etag, status: status)
        pending[metrics.stripes.current].fetches.withLock { $0[Key(hostname: host, file: file)] = fetch }
    }

    private func counter(file: AssociationFile, status: Int) -> Counter {
        if let fileIndex = AssociationFile.allCases.firstIndex(of: file), let statusIndex = Self.answered.firstIndex(of: status) {
            return counters[fileIndex][statusIndex]
        }
        return Self.series(file: file, status: status, in: metrics)
    }

    private static func series(file: AssociationFile, status: Int, in metrics: MetricsRegistry) -> Counter {
        metrics.counter(
            "linkd_association_fetches_total", help: "Association file fetches by file and status.",
            labels: ["file": file.rawValue, "status": String(status)])
    }

    /// Upserts the latest fetch per host and file.
    func flush() {
        var latest: [Key: Fetch] = [:]
        for stripe in pending {
            let taken = stripe.fetches.withLock { pending in
                defer { pending.removeAll() }
                return pending
            }
            latest.merge(taken) { $0.at >= $1.at ? $0 : $1 }
        }
        let batch = Array(latest.values)
        guard !batch.isEmpty else { return }
        do {
            try pool.withConnection { connection in
                for fetch in batch {
                    try DomainStore.recordFetch(
                        hostname: fetch.hostname, file: fetch.file, at: fetch.at, userAgent: fetch.userAgent,
                        etag: fetch.etag, status: fetch.status, on: connection)
                }
            }
        } catch {
            logger.warning("cannot record association fetches", metadata: ["error": "\(error)", "fetch.count": "\(batch.count)"])
        }
    }
}
