import Foundation
import OpenID
import Outbound
import Synchronization
import TestSupport

/// A clock a test moves by hand: token lifetimes and the provider's caches read it.
final class TestClock: Sendable {
    private let seconds = Mutex(Date().timeIntervalSince1970.rounded())

    var now: Double { seconds.withLock { $0 } }

    func advance(_ by: Double) { seconds.withLock { $0 += by } }

    var read: @Sendable () -> Double { { self.now } }
}

extension OpenIDTestProvider {
    /// A relying party of this provider, allowed to reach it on loopback over http.
    func relyingParty(
        clock: TestClock, issuer: String? = nil, configure: (inout OpenIDProvider.Settings) -> Void = { _ in }
    ) throws -> OpenIDProvider {
        var settings = OpenIDProvider.Settings()
        settings.policy = AddressPolicy(allowing: [try CIDR("127.0.0.0/8")])
        settings.allowHTTP = true
        configure(&settings)
        return OpenIDProvider(issuer: issuer ?? self.issuer, client: try HTTPClient(), settings: settings, clock: clock.read)
    }

    /// Claims a good ID token for this relying party has at `now`, with `changes` applied (NSNull removes one).
    func claims(now: Double, nonce: String = "n-0S6_WzA2Mj", _ changes: [String: Any] = [:]) -> [String: Any] {
        var claims: [String: Any] = [
            "iss": issuer, "sub": "user-1", "aud": clientID, "iat": Int(now), "exp": Int(now) + 300,
            "nonce": nonce, "email": "ada@example.com", "email_verified": true,
        ]
        for (name, value) in changes {
            if value is NSNull { claims[name] = nil } else { claims[name] = value }
        }
        return claims
    }
}
