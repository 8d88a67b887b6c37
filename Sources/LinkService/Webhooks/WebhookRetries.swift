import Foundation

/// When a failed delivery is tried again: seconds at first, so a receiver's brief hiccup costs under a minute,
/// then growing to hours; each wait varies by up to a fifth either way (jitter), so that the deliveries a receiver's
/// outage held back do not all return at once. With the default failure limit (13) a subscription is retried for
/// about 32 hours (at least 25, whatever the jitter) before it is disabled.
enum WebhookRetries {
    /// The wait after the n-th failed attempt (the last one repeats).
    static let delays: [Duration] = [
        .seconds(2), .seconds(5), .seconds(30), .seconds(120), .seconds(600), .seconds(1800),
        .seconds(3600), .seconds(7200), .seconds(14400), .seconds(28800),
    ]

    /// The wait after `attempts` failed attempts (1 or more), with jitter from `random` (0 to 1).
    static func delay(after attempts: Int, random: Double = Double.random(in: 0...1)) -> Duration {
        let base = delays[min(max(attempts, 1), delays.count) - 1]
        return base * (0.8 + 0.4 * random)
    }
}
