import Foundation
import Outbound
import Synchronization

/// One identity provider as a relying party sees it: its discovery document and JWK set, fetched through
/// `Outbound`'s `HTTPClient` under an `AddressPolicy` and kept as long as their `Cache-Control` says (within
/// `CacheLifetime`'s bounds), the code redeemed at its token endpoint, and ID tokens verified with its keys.
///
/// Which URLs it asks is decided here, never by a caller: the discovery document under the configured issuer,
/// then the `jwks_uri` and `token_endpoint` that document names, once it has named the issuer exactly. Every
/// connection is judged by the policy inside libcurl (`HTTPClient.send`), so an issuer on loopback or a private
/// network is reached only when the operator allowed that range (docs/PEOPLE.md, "Single sign-on").
public final class OpenIDProvider: Sendable {
    public struct Settings: Sendable {
        /// The addresses the provider's URLs may connect to.
        public var policy = AddressPolicy()
        /// Whether its URLs may be plain `http` (tests, private networks).
        public var allowHTTP = false
        public var cacheLifetime = CacheLifetime()
        /// A token naming a `kid` the set lacks fetches the set again (a key rotated in), at most once this often,
        /// so tokens naming made-up keys cannot make linkd ask the provider on every request.
        public var keyRefetchInterval: Double = 30
        /// The whole of each request to the provider.
        public var timeout: Duration = .seconds(10)
        /// The largest discovery document, JWK set or token answer read.
        public var maxBodyBytes = 256 * 1024

        public init() {}
    }

    public let issuer: String
    private let client: HTTPClient
    private let settings: Settings
    private let clock: @Sendable () -> Double
    private let cache = Mutex(Cache())

    private struct Cache {
        var metadata: (value: ProviderMetadata, until: Double)?
        var keys: (value: JSONWebKeySet, until: Double)?
        var lastKeyFetch: Double?
    }

    /// - Parameters:
    ///   - issuer: the issuer identifier exactly as tokens name it (`https://accounts.example.com`).
    ///   - clock: seconds since 1970, for token lifetimes and the caches.
    public init(
        issuer: String, client: HTTPClient, settings: Settings = Settings(),
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.issuer = issuer
        self.client = client
        self.settings = settings
        self.clock = clock
    }

    /// The discovery document, from the cache while it is fresh.
    /// - Throws: `OpenIDError`: `.unreachable`, `.discovery`.
    public func metadata() throws(OpenIDError) -> ProviderMetadata {
        let now = clock()
        if let cached = cache.withLock({ $0.metadata }), cached.until > now { return cached.value }
        let response = try get(ProviderMetadata.discoveryURL(issuer), what: "discovery document")
        let metadata = try ProviderMetadata(json: response.body, issuer: issuer, allowHTTP: settings.allowHTTP)
        let until = now + settings.cacheLifetime.seconds(response.cacheControl)
        cache.withLock { $0.metadata = (metadata, until) }
        return metadata
    }

    /// The JWK set, from the cache while it is fresh (or when `refetch` is false and it is not yet known).
    /// - Throws: `OpenIDError`: `.unreachable`, `.discovery`, `.keySet`.
    public func keySet() throws(OpenIDError) -> JSONWebKeySet {
        let now = clock()
        if let cached = cache.withLock({ $0.keys }), cached.until > now { return cached.value }
        return try fetchKeys(now: now)
    }

    /// The claims of `idToken` once its signature and claims verify for `clientID` and `nonce`.
    /// - Throws: `OpenIDError` saying why it is refused (see `IDTokenVerifier`, `SignedToken`; `.unknownKey`
    ///   when no key has its `kid`, even after fetching the set again).
    public func verify(idToken: String, clientID: String, nonce: String) throws(OpenIDError) -> IDTokenClaims {
        let token = try SignedToken(idToken)
        var key = try keySet().key(token.keyID, for: token.algorithm)
        if key == nil {
            let now = clock()
            let mayRefetch = cache.withLock { state in
                guard state.lastKeyFetch.map({ now - $0 >= settings.keyRefetchInterval }) ?? true else { return false }
                state.lastKeyFetch = now
                return true
            }
            if mayRefetch { key = try fetchKeys(now: now).key(token.keyID, for: token.algorithm) }
        }
        guard let key else { throw OpenIDError(.unknownKey, "no key of the provider's set signs this token") }
        return try IDTokenVerifier(issuer: issuer, clientID: clientID).verify(token, key: key, nonce: nonce, now: clock())
    }

    /// Redeems `code` at the token endpoint (OpenID Connect Core §3.1.3.1) with the PKCE `codeVerifier`,
    /// authenticating with `client_secret_basic` (RFC 6749 §2.3.1: id and secret form-encoded, then base64).
    /// - Throws: `OpenIDError`: `.unreachable`, `.discovery`, `.tokenRequest`.
    public func redeem(
        code: String, codeVerifier: String, redirectURI: String, clientID: String,
        clientSecret: String
    ) throws(OpenIDError) -> TokenResponse {
        let metadata = try metadata()
        let credentials = Data("\(FormEncoding.encode(clientID)):\(FormEncoding.encode(clientSecret))".utf8).base64EncodedString()
        let body = FormEncoding.encode([
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
            ("code_verifier", codeVerifier),
        ])
        let request = OutboundRequest(
            url: metadata.tokenEndpoint, method: .post,
            headers: [("Authorization", "Basic \(credentials)"), ("Accept", "application/json")],
            body: Array(body.utf8), contentType: "application/x-www-form-urlencoded",
            timeout: settings.timeout, maxBodyBytes: settings.maxBodyBytes)
        let response = try send(request, what: "token endpoint")
        return try TokenResponse(status: response.status, body: response.body)
    }

    private func fetchKeys(now: Double) throws(OpenIDError) -> JSONWebKeySet {
        let response = try get(try metadata().jwksURI, what: "JWK set")
        let keys = try JSONWebKeySet(json: response.body)
        let until = now + settings.cacheLifetime.seconds(response.cacheControl)
        cache.withLock {
            $0.keys = (keys, until)
            $0.lastKeyFetch = now
        }
        return keys
    }

    private func get(_ url: String, what: String) throws(OpenIDError) -> OutboundResponse {
        let response = try send(
            OutboundRequest(
                url: url, headers: [("Accept", "application/json")], timeout: settings.timeout,
                maxBodyBytes: settings.maxBodyBytes), what: what)
        guard response.status == 200 else { throw OpenIDError(.unreachable, "the provider's \(what) answered \(response.status)") }
        return response
    }

    private func send(_ request: OutboundRequest, what: String) throws(OpenIDError) -> OutboundResponse {
        do {
            return try client.send(request, allowedBy: settings.policy, allowHTTP: settings.allowHTTP)
        } catch {
            throw OpenIDError(.unreachable, "the provider's \(what) could not be asked: \(error.message)")
        }
    }
}
