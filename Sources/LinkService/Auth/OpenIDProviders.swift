import OpenID
import Outbound
import Synchronization

/// The identity providers workspaces sign in with, one `OpenIDProvider` per issuer, shared by the workspaces
/// that name it, so its discovery document and keys are fetched once for all of them and kept as their
/// `Cache-Control` says.
final class OpenIDProviders: Sendable {
    /// Issuers kept at most; beyond, the map starts again (a workspace changing its issuer often cannot grow it).
    static let limit = 256

    private let client: HTTPClient
    private let settings: OpenIDProvider.Settings
    private let providers = Mutex<[String: OpenIDProvider]>([:])

    init(client: HTTPClient, configuration: SSOConfiguration) {
        self.client = client
        settings = configuration.providerSettings
    }

    /// Whether an issuer may be configured: an absolute `https` URL (`http` when allowed) without user
    /// information, query or fragment. Its addresses are judged when it is asked.
    func refusal(ofIssuer issuer: String) -> String? {
        if case .failure(let failure) = AddressPolicy.target(issuer, allowHTTP: settings.allowHTTP) { return failure.message }
        if issuer.contains("?") { return "An issuer has no query." }
        return nil
    }

    /// The provider of `issuer`.
    func provider(_ issuer: String) -> OpenIDProvider {
        providers.withLock { providers in
            if let provider = providers[issuer] { return provider }
            if providers.count >= Self.limit { providers.removeAll() }
            let provider = OpenIDProvider(issuer: issuer, client: client, settings: settings)
            providers[issuer] = provider
            return provider
        }
    }
}
