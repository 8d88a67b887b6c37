import Foundation
import LinkKit
@testable import LinkService
import Outbound
import Postgres
import Testing
import TestSupport

/// What the webhook tests share: a service configured to deliver to a receiver on loopback (plain http and
/// 127.0.0.0/8 allowed, as `--webhook-allow-http on --webhook-allow-private 127.0.0.0/8` would), and a subscription.
enum WebhookTesting {
    static let key = WebhookSecretKeys.Key.generate(id: "test")

    static func configure(_ configuration: inout ServiceConfiguration) {
        configuration.webhooks.keys = WebhookSecretKeys([key])
        configuration.webhooks.allowHTTP = true
        configuration.webhooks.allowedRanges = [try! CIDR("127.0.0.0/8")]
        configuration.webhooks.timeout = .seconds(5)
    }

    /// Subscribes `receiver` to `events` and tells it the secret (and the statuses and delays to answer with);
    /// answers the subscription's id. `bulkEvents`: what bulk writes tell it (nil: the default).
    @discardableResult
    static func subscribe(
        _ service: TestService, key: String, _ receiver: WebhookReceiver, events: [String],
        statuses: [Int] = [], delays: [Double] = [], bulkEvents: String? = nil
    ) throws -> String {
        let bulk = bulkEvents.map { #","bulkEvents":"\#($0)""# } ?? ""
        let body = #"{"url":"\#(receiver.url)","events":[\#(events.map { "\"\($0)\"" }.joined(separator: ","))]\#(bulk)}"#
        let created = try Fixture.expect(201, service.request("POST", "/v1/webhooks", key: key, json: body))
        try receiver.control(secret: try #require(try created.json["secret"]?.stringValue), statuses: statuses, delays: delays)
        return try #require(try created.json["id"]?.stringValue)
    }

    /// `waitUntil`, with the longer patience deliveries need (up to `seconds`: retries back off).
    static func wait(seconds: Double = 90, _ what: String, _ condition: () throws -> Bool) throws {
        try waitUntil(what, timeout: seconds, condition)
    }

    /// Waits until the outbox of `pool`'s database holds nothing undelivered (nothing more is sent unless asked)
    /// and `receivers` have answered as many requests as the outbox records attempts; answers that number. What
    /// a test would otherwise check after a fixed sleep ("nothing more arrives"), as a condition.
    @discardableResult
    static func settle(_ pool: ConnectionPool, _ receivers: [WebhookReceiver]) throws -> Int {
        var attempts = 0
        try wait("every queued event delivered and its answers seen") {
            let (undelivered, recorded) = try pool.withConnection { connection in
                try connection.query(
                    """
                    SELECT count(*) FILTER (WHERE delivered_at IS NULL)::int8, coalesce(sum(attempts), 0)::int8 FROM webhook_outbox
                    """
                ).first!.decode((Int64, Int64).self)
            }
            attempts = Int(recorded)
            return undelivered == 0 && receivers.map(\.deliveries.count).reduce(0, +) >= attempts
        }
        return attempts
    }

    /// The delivery attempts `service` has finished with `outcome` (`delivered`, `failed`), from `/metrics`.
    static func attempts(_ service: TestService, outcome: String) throws -> Int {
        let line = try service.request("GET", "/metrics").text.split(separator: "\n")
            .first { $0.hasPrefix("linkd_webhook_deliveries_total{outcome=\"\(outcome)\"}") }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Int($0) } ?? 0
    }

    /// The delivery log of `webhook`.
    static func log(_ service: TestService, key: String, _ webhook: String) throws -> [JSONValue] {
        try Fixture.expect(200, service.request("GET", "/v1/webhooks/\(webhook)/deliveries", key: key)).json["items"]?.arrayValue ?? []
    }
}
