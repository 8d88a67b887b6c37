import Foundation
import OpenID
import Outbound
import Testing
import TestSupport

/// Discovery, the caches, the address policy and the code flow against the Authlib provider.
@Suite(.serialized)
struct OpenIDProviderTests {
    let provider: OpenIDTestProvider
    let clock = TestClock()

    init() throws {
        provider = try OpenIDTestProvider()
    }

    @Test func discoveryIsReadAndKeptForItsMaxAge() throws {
        let party = try provider.relyingParty(clock: clock)
        let metadata = try party.metadata()
        #expect(metadata.issuer == provider.issuer)
        #expect(metadata.tokenEndpoint == provider.issuer + "/token" && metadata.jwksURI == provider.issuer + "/jwks")
        _ = try party.metadata()
        _ = try party.keySet()
        _ = try party.keySet()
        #expect(try provider.stats()["discovery"] == 1 && provider.stats()["jwks"] == 1)
        clock.advance(301) // the provider says max-age=300
        _ = try party.metadata()
        _ = try party.keySet()
        #expect(try provider.stats()["discovery"] == 2 && provider.stats()["jwks"] == 2)
    }

    @Test func aDiscoveryDocumentNamingAnotherIssuerIsRefused() throws {
        // The same document, asked for an issuer written with a trailing slash: not the issuer it names.
        let party = try provider.relyingParty(clock: clock, issuer: provider.issuer + "/")
        #expect(throws: OpenIDError.self) { try party.metadata() }
        do { _ = try party.metadata() } catch { #expect(error.code == .discovery) }
    }

    @Test func theProviderIsReachedOnlyWhereThePolicyAllows() throws {
        // Loopback is refused unless the operator allowed it, and http unless allowed.
        let refusedAddress = try provider.relyingParty(clock: clock) { $0.policy = AddressPolicy() }
        do { _ = try refusedAddress.metadata(); Issue.record("loopback reached") } catch {
            #expect(error.code == .unreachable && error.message.contains("loopback"))
        }
        let refusedScheme = try provider.relyingParty(clock: clock) { $0.allowHTTP = false }
        do { _ = try refusedScheme.metadata(); Issue.record("http reached") } catch {
            #expect(error.code == .unreachable && error.message.contains("https"))
        }
        #expect(try provider.stats()["discovery"] == 0)
    }

    @Test func cacheLifetimesAreBounded() {
        let lifetime = CacheLifetime()
        #expect(lifetime.seconds(nil) == 3600)
        #expect(lifetime.seconds("public, max-age=300") == 300)
        #expect(lifetime.seconds("max-age=5") == 60)
        #expect(lifetime.seconds("no-store") == 60)
        #expect(lifetime.seconds("max-age=99999999") == 86400)
        #expect(lifetime.seconds("private") == 3600)
    }

    /// The authorization code flow as a browser would drive it: the authorization URL, the provider's redirect
    /// with the code and state, the code redeemed with the PKCE verifier, the ID token verified with the nonce.
    @Test func theCodeFlowSignsThePersonIn() throws {
        let party = try provider.relyingParty(clock: clock)
        let redirectURI = "http://127.0.0.1:1/sso/callback"
        let request = AuthorizationRequest.random()
        let (code, state) = try authorize(request, party: party, redirectURI: redirectURI)
        #expect(state == request.state)
        // A wrong verifier is refused by the provider; the code is then spent.
        #expect(throws: OpenIDError.self) {
            try party.redeem(
                code: code, codeVerifier: AuthorizationRequest.random().codeVerifier, redirectURI: redirectURI,
                clientID: provider.clientID, clientSecret: provider.clientSecret)
        }
        let second = AuthorizationRequest.random()
        let (code2, _) = try authorize(second, party: party, redirectURI: redirectURI)
        #expect(throws: OpenIDError.self) {
            try party.redeem(
                code: code2, codeVerifier: second.codeVerifier, redirectURI: redirectURI,
                clientID: provider.clientID, clientSecret: "wrong")
        }
        for alg in ["RS256", "ES256"] {
            try provider.control(["alg": alg])
            let request = AuthorizationRequest.random()
            let (code, _) = try authorize(request, party: party, redirectURI: redirectURI)
            let tokens = try party.redeem(
                code: code, codeVerifier: request.codeVerifier, redirectURI: redirectURI,
                clientID: provider.clientID, clientSecret: provider.clientSecret)
            #expect(throws: OpenIDError.self) {
                try party.verify(idToken: tokens.idToken, clientID: provider.clientID, nonce: AuthorizationRequest.random().nonce)
            }
            let claims = try party.verify(idToken: tokens.idToken, clientID: provider.clientID, nonce: request.nonce)
            #expect(claims.email == "ada@example.com" && claims.emailVerified)
        }
    }

    @Test func pkceChallengeIsRFC7636s() {
        // RFC 7636 Appendix B.
        #expect(
            AuthorizationRequest.challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        let one = AuthorizationRequest.random(), two = AuthorizationRequest.random()
        #expect(one.codeVerifier.count == 43 && one.state != two.state && one.nonce != two.nonce && one.state != one.nonce)
    }

    /// Follows the authorization URL to the provider's redirect; answers its code and state.
    private func authorize(_ request: AuthorizationRequest, party: OpenIDProvider, redirectURI: String) throws -> (String, String) {
        let url = request.url(endpoint: try party.metadata().authorizationEndpoint, clientID: provider.clientID, redirectURI: redirectURI)
        let target = String(url.dropFirst(provider.issuer.count))
        let response = try HTTPTestClient.request(port: provider.port, path: target)
        #expect(response.status == 302)
        let location = URLComponents(string: response.headers["location"] ?? "")
        #expect(location.map { "\($0.scheme ?? ""):\($0.host ?? "")" } == "http:127.0.0.1")
        let items = location?.queryItems ?? []
        let code = items.first { $0.name == "code" }?.value ?? ""
        let state = items.first { $0.name == "state" }?.value ?? ""
        return (code, state)
    }
}
