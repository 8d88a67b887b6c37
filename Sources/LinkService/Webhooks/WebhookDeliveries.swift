import Dispatch
import Foundation
import Observability
import Outbound
import Postgres

/// Delivers the webhook outbox (docs/WEBHOOKS.md, "Delivery"): `threads` workers each claim one due delivery
/// (`WebhookStore.claim`: the oldest undelivered event of a due subscription, the workspace this node served least
/// recently first, whose subscription row is taken with `SKIP LOCKED`, so each event is taken by one node, and
/// leased, so a node that dies mid-send leaves it due again), sign it with the subscription's secret and `POST` it
/// (Standard Webhooks headers; an address the policy refuses is never connected to, redirects are not followed,
/// the answer's body is read up to a small limit), then record the outcome: a 2xx delivers, anything else is
/// tried again after `WebhookRetries`, and a run of failures reaching the limit disables the subscription and
/// tells the workspace (`webhook.disabled`). A workspace has at most `threads - 1` deliveries in flight on a node
/// (`WebhookShares`), so another workspace always finds a worker. Workers sleep a second when nothing is due, and
/// wake at once when this node queues an event (the outbox's bell, `WebhookOutboxBell`).
final class WebhookDeliveries: BackgroundService {
    let name = "webhook deliveries"
    static let threads = 4

    private let pool: ConnectionPool
    private let client: HTTPClient
    private let configuration: WebhookConfiguration
    private let logger: Logger
    private let workers = (0..<WebhookDeliveries.threads).map { ServiceThread(name: "linkd.webhooks.\($0)") }
    private let outcomes: [String: Counter]
    /// The workers' shares between workspaces.
    let shares = WebhookShares(limit: WebhookDeliveries.threads - 1)
    /// Taken by a worker while it claims (a short transaction), so that claims on this node see each other.
    private let claiming = DispatchSemaphore(value: 1)

    /// The answer's body read at most (its status is what counts).
    static let responseLimit = 4096
    /// How long a claimed delivery stays with the node that claimed it beyond the request's own timeout.
    static let leaseMargin: Duration = .seconds(30)

    init(
        pool: ConnectionPool, client: HTTPClient, configuration: WebhookConfiguration, outbox: WebhookOutboxBell, metrics: MetricsRegistry,
        logger: Logger
    ) {
        self.pool = pool
        self.client = client
        self.configuration = configuration
        self.logger = logger
        var outcomes: [String: Counter] = [:]
        for outcome in ["delivered", "failed", "disabled"] {
            outcomes[outcome] = metrics.counter(
                "linkd_webhook_deliveries_total", help: "Webhook delivery attempts, by outcome.",
                labels: ["outcome": outcome])
        }
        self.outcomes = outcomes
        outbox.listen(workers)
    }

    var isHealthy: Bool { workers.allSatisfy(\.isRunning) }

    /// Each worker delivers one after the other while some are due, and rests a second when none is.
    func start() {
        for worker in workers {
            worker.startPasses(retry: .seconds(5), logger: logger, failure: "webhook deliveries: the outbox cannot be read") { [self] in
                try deliverOne() ? nil : .seconds(1)
            }
        }
    }

    func shutdown() {
        for worker in workers { worker.stop() }
    }

    /// Claims one due delivery and sends it; false when none was due.
    func deliverOne() throws -> Bool {
        let lease = configuration.timeout + Self.leaseMargin
        // One claim at a time on this node: each reads the shares the claims before it left, so a workspace never
        // gets more than its share because workers freed at once (by timeouts that ran out together) claimed at once.
        claiming.wait()
        let claimed: ClaimedDelivery?
        do {
            defer { claiming.signal() }
            claimed = try pool.withTransaction { try WebhookStore.claim(lease: lease, fairness: shares.fairness, on: $0) }
            if let claimed { shares.claimed(claimed.workspaceID) }
        }
        guard let delivery = claimed else { return false }
        defer { shares.finished(delivery.workspaceID) }
        let result = send(delivery)
        try pool.withTransaction { connection in
            switch result {
            case .success(let status):
                try WebhookStore.delivered(delivery, status: status, on: connection)
                outcomes["delivered"]?.increment()
            case .failure(let failure):
                outcomes["failed"]?.increment()
                let retry = WebhookRetries.delay(after: delivery.attempts + 1)
                logger.info(
                    "webhook delivery failed",
                    metadata: [
                        "webhook": delivery.webhookID.canonicalText, "event": delivery.eventID, "attempt": "\(delivery.attempts + 1)",
                        "status": failure.status.map(String.init) ?? "none", "error": failure.error,
                    ])
                if let disabled = try WebhookStore.failed(
                    delivery, status: failure.status,
                    error: failure.error, retry: retry, failureLimit: configuration.failureLimit,
                    on: connection)
                {
                    outcomes["disabled"]?.increment()
                    logger.warning(
                        "webhook disabled after failed deliveries",
                        metadata: [
                            "webhook": delivery.webhookID.canonicalText, "failures": "\(disabled.failureRun)",
                        ])
                    try WebhookStore.enqueue(
                        [
                            WebhookEvent(
                                .webhookDisabled, workspace: delivery.workspaceID,
                                data: .object([
                                    "webhook": disabled.json,
                                    "lastError": .string(failure.error),
                                ]))
                        ], on: connection)
                }
            }
        }
        return true
    }

    /// Why a delivery was not taken: the receiver's status when it answered, and a short reason.
    struct Failure: Error {
        let status: Int?
        let error: String
    }

    /// Signs and posts `delivery`; its receiver's 2xx status, or why not.
    private func send(_ delivery: ClaimedDelivery) -> Result<Int, Failure> {
        guard let keys = configuration.keys,
            let key = keys.unseal(delivery.secretSealed, keyID: delivery.secretKeyID, for: delivery.webhookID),
            let signer = WebhookSignature(key: key)
        else {
            logger.error(
                "webhook secret cannot be opened",
                metadata: [
                    "webhook": delivery.webhookID.canonicalText,
                    "key": delivery.secretKeyID,
                ])
            return .failure(
                Failure(
                    status: nil,
                    error: "the subscription's secret is sealed with key '\(delivery.secretKeyID)', not configured on this node"))
        }
        let body = Array(delivery.payload.utf8)
        let timestamp = Int64(Date().timeIntervalSince1970)
        let request = OutboundRequest(
            url: delivery.url, method: .post, headers: signer.headers(id: delivery.eventID, timestamp: timestamp, body: body),
            body: body, contentType: "application/json", timeout: configuration.timeout,
            maxBodyBytes: Self.responseLimit, truncateBody: true)
        do throws(OutboundFailure) {
            let response = try client.send(request, allowedBy: configuration.policy, allowHTTP: configuration.allowHTTP)
            guard (200..<300).contains(response.status) else {
                return .failure(Failure(status: response.status, error: "the receiver answered \(response.status)"))
            }
            return .success(response.status)
        } catch {
            return .failure(Failure(status: nil, error: error.description))
        }
    }
}
