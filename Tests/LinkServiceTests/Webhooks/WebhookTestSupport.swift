import Foundation
import LinkKit
@testable import LinkService
import Outbound
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
    /// answers the subscription's id.
    @discardableResult
    static func subscribe(_ service: TestService, key: String, _ receiver: WebhookReceiver, events: [String],
                          statuses: [Int] = [], delays: [Double] = []) throws -> String {
        let body = #"{"url":"\#(receiver.url)","events":[\#(events.map { "\"\($0)\"" }.joined(separator: ","))]}"#
        let created = try Fixture.expect(201, service.request("POST", "/v1/webhooks", key: key, json: body))
        try receiver.control(secret: try #require(try created.json["secret"]?.stringValue), statuses: statuses, delays: delays)
        return try #require(try created.json["id"]?.stringValue)
    }

    /// Waits (up to `seconds`) until `condition` holds.
    static func wait(seconds: Double = 20, _ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while try !condition() {
            guard Date() < deadline else { throw TestFailure("\(what) did not happen within \(Int(seconds)) s") }
            usleep(50_000)
        }
    }

    /// The delivery log of `webhook`.
    static func log(_ service: TestService, key: String, _ webhook: String) throws -> [JSONValue] {
        try Fixture.expect(200, service.request("GET", "/v1/webhooks/\(webhook)/deliveries", key: key)).json["items"]?.arrayValue ?? []
    }
}
