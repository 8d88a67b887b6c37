import Dispatch
import Foundation
import Observability
import Outbound
import Synchronization

/// Sends mail off the request threads (docs/PEOPLE.md, "Mail (SMTP)"): a request queues a job and answers at
/// once; the service's one thread composes each job's mail (a job may read the database: whom to write to, a
/// new one-time link) and sends it through `SMTPClient`, bounded in time. The queue is bounded too: a job that
/// finds it full is dropped, and every outcome is logged and counted (`linkd_mail_total{result}`), never
/// answered to the request that queued it.
final class Mailer: BackgroundService {
    /// Composes one mail; nil when there is nothing to send after all (an unknown address asking for a reset).
    typealias Job = @Sendable () throws -> Mail?

    let name = "mailer"
    static let threads = 1
    /// Jobs waiting at most.
    static let capacity = 64

    /// The SMTP server; nil when `--smtp-url` is not set (nothing is queued).
    let client: SMTPClient?
    private let logger: Logger
    private let queue = Mutex<[(kind: String, job: Job)]>([])
    private let worker = ServiceThread(name: "linkd.mailer")
    private let outcomes: [String: Counter]

    init(settings: SMTPSettings, metrics: MetricsRegistry, logger: Logger) {
        client = settings.url == nil ? nil : SMTPClient(settings: settings)
        self.logger = logger
        outcomes = Dictionary(
            uniqueKeysWithValues: ["sent", "failed", "dropped", "skipped"].map { result in
                (
                    result,
                    metrics.counter(
                        "linkd_mail_total", help: "Mail queued by linkd (invitations, password resets), by outcome.",
                        labels: ["result": result])
                )
            })
    }

    /// Whether mail is sent at all (`--smtp-url` set).
    var isConfigured: Bool { client != nil }

    /// The sender's address (`--smtp-from`).
    var from: String { client?.settings.from ?? "" }

    var isHealthy: Bool { client == nil || worker.isRunning }

    func start() {
        guard client != nil else { return }
        logger.info("mail through SMTP", metadata: ["smtp.url": client?.settings.redactedURL ?? "", "smtp.from": from])
        worker.start { [self] in run() }
    }

    /// Sends what is queued, for as long as one mail may take at most, then stops: what is left then is dropped
    /// (logged and counted), so a mail server that stopped answering cannot hold up the shutdown.
    func shutdown() {
        worker.stop { [self] in drain(until: lastPassDeadline) }
    }

    /// When the last pass stops sending.
    private var lastPassDeadline: ContinuousClock.Instant {
        .now + (client?.settings.timeout ?? .zero)
    }

    /// Queues `job` (named `kind` in logs: `invitation`, `password reset`); false when mail is off or the queue is
    /// full (logged and counted).
    @discardableResult
    func enqueue(_ kind: String, _ job: @escaping Job) -> Bool {
        guard client != nil else { return false }
        let queued = queue.withLock { queue in
            guard queue.count < Self.capacity else { return false }
            queue.append((kind, job))
            return true
        }
        guard queued else {
            outcomes["dropped"]?.increment()
            logger.warning("mail not sent: the queue is full", metadata: ["mail.kind": kind, "mail.queue": "\(Self.capacity)"])
            return false
        }
        worker.wake()
        return true
    }

    private func run() {
        while true {
            drain()
            if worker.sleep(until: .distantFuture) {
                drain(until: lastPassDeadline)
                return
            }
        }
    }

    /// Composes and sends every job queued, in order; with a `deadline` (set too by a stop asked while it sends),
    /// drops what is still queued once it has passed.
    private func drain(until deadline: ContinuousClock.Instant? = nil) {
        guard let client else { return }
        var deadline = deadline
        while let (kind, job) = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            if deadline == nil, worker.isStopping { deadline = lastPassDeadline }
            if let deadline, ContinuousClock.now >= deadline {
                let left =
                    1
                    + queue.withLock { queue in
                        defer { queue.removeAll() }
                        return queue.count
                    }
                outcomes["dropped"]?.increment(by: UInt64(left))
                logger.warning("mail not sent: linkd is stopping", metadata: ["mail.kind": kind, "mail.dropped": "\(left)"])
                return
            }
            let mail: Mail?
            do {
                mail = try job()
            } catch {
                outcomes["failed"]?.increment()
                logger.warning("mail not sent: it could not be composed", metadata: ["mail.kind": kind, "error": "\(error)"])
                continue
            }
            guard let mail else {
                outcomes["skipped"]?.increment()
                continue
            }
            let started = ContinuousClock.now
            switch client.send(mail) {
            case .success:
                outcomes["sent"]?.increment()
                logger.info(
                    "mail sent",
                    metadata: [
                        "mail.kind": kind, "mail.to": mail.to,
                        "mail.seconds": "\((ContinuousClock.now - started).inSeconds)",
                    ])
            case .failure(let failure):
                outcomes["failed"]?.increment()
                logger.warning(
                    "mail not sent",
                    metadata: [
                        "mail.kind": kind, "mail.to": mail.to, "error": "\(failure)",
                        "smtp.url": client.settings.redactedURL,
                    ])
            }
        }
    }
}
