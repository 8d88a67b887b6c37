import Foundation
import OpenID
import Outbound

/// How single sign-on reaches identity providers and how long what it begins lasts (docs/PEOPLE.md, "Single
/// sign-on"; the options are `--sso-*`, docs/CONFIGURATION.md).
public struct SSOConfiguration: Sendable {
    /// Plain `http` issuers allowed (`--sso-allow-http`): for tests and private networks.
    public var allowHTTP = false
    /// Ranges an issuer's addresses may be in although loopback, private or link-local (`--sso-allow-private`):
    /// a provider inside the operator's network, or the tests' on 127.0.0.1.
    public var allowedRanges: [CIDR] = []
    /// How long a sign-in may take between leaving for the provider and coming back.
    public var attemptLifetime: TimeInterval = 600

    public init() {}

    /// How providers are asked.
    var providerSettings: OpenIDProvider.Settings {
        var settings = OpenIDProvider.Settings()
        settings.policy = AddressPolicy(allowing: allowedRanges)
        settings.allowHTTP = allowHTTP
        return settings
    }
}
