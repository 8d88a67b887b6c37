import Foundation
import Outbound

/// How webhooks are delivered (docs/WEBHOOKS.md; the options are `--webhook-*`, docs/CONFIGURATION.md).
public struct WebhookConfiguration: Sendable {
    /// The keys sealing subscriptions' secrets; nil: no subscription can be created or delivered (the `linkd`
    /// command always supplies one, from `--webhook-secret-key` or a key file it keeps in the data folder).
    public var keys: WebhookSecretKeys?
    /// Plain `http` targets allowed (`--webhook-allow-http`): for tests and private networks.
    public var allowHTTP = false
    /// Ranges re-allowed although private, loopback or link-local (`--webhook-allow-private`).
    public var allowedRanges: [CIDR] = []
    /// The longest one delivery may take, connection included.
    public var timeout: Duration = .seconds(10)
    /// Consecutive failed deliveries that disable a subscription; the default spans more than a day of retries
    /// (`WebhookRetries`).
    public var failureLimit = 13
    /// Days delivered events are kept for the delivery log.
    public var retentionDays = 30
    /// Seconds over which a link's taps are coalesced into one `link.clicked` event.
    public var clickInterval = 60
    /// `link.clicked` events at most a node queues per interval; the taps of links beyond it wait for the next.
    public var clickLimit = 100
    /// Subscriptions a workspace may have at most: each one is a queue every event of its types is written to.
    public var subscriptionLimit = 20

    public init() {}

    /// Where deliveries may connect.
    var policy: AddressPolicy { AddressPolicy(allowing: allowedRanges) }
}
