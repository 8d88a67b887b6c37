import Foundation
import OpenID
import Testing
import TestSupport

/// ID tokens minted by Authlib's jose (a real library, not ours) and verified by linkd's relying party: the good
/// ones in both algorithms pass, and each way a token can be wrong is refused with its reason.
@Suite(.serialized)
struct IDTokenVerificationTests {
    let provider: OpenIDTestProvider
    let clock = TestClock()
    let nonce = "n-0S6_WzA2Mj"

    init() throws {
        provider = try OpenIDTestProvider()
    }

    private func verify(_ token: String, nonce: String? = nil) throws -> IDTokenClaims {
        try provider.relyingParty(clock: clock).verify(idToken: token, clientID: provider.clientID, nonce: nonce ?? self.nonce)
    }

    private func refusal(_ token: String, nonce: String? = nil) -> OpenIDError.Code? {
        do {
            _ = try verify(token, nonce: nonce)
            return nil
        } catch let error as OpenIDError {
            return error.code
        } catch {
            return nil
        }
    }

    @Test func goodRS256AndES256TokensVerify() throws {
        let claims = provider.claims(now: clock.now, ["name": "Ada Lovelace", "groups": ["eng", "ops"]])
        let rsa = try verify(try provider.mint(header: ["alg": "RS256", "kid": "rsa-1"], claims: claims, key: "rsa"))
        #expect(rsa.subject == "user-1" && rsa.email == "ada@example.com" && rsa.emailVerified && rsa.name == "Ada Lovelace")
        #expect(rsa.strings("groups") == ["eng", "ops"])
        let ec = try verify(try provider.mint(header: ["alg": "ES256", "kid": "ec-1"], claims: claims, key: "ec"))
        #expect(ec.subject == "user-1")
    }

    @Test func algorithmsOtherThanRS256AndES256AreRefused() throws {
        let claims = provider.claims(now: clock.now)
        #expect(refusal(try provider.mint(header: ["alg": "none"], claims: claims, key: "none")) == .unsupportedAlgorithm)
        // HS256 with the client secret as key is the classic confusion; it is refused before any key is tried.
        let header = Base64URL.encode(Array(#"{"alg":"HS256","kid":"rsa-1"}"#.utf8))
        let payload = Base64URL.encode(try JSONSerialization.data(withJSONObject: claims))
        #expect(refusal("\(header).\(payload).c2lnbmF0dXJl") == .unsupportedAlgorithm)
        let critical = Base64URL.encode(Array(#"{"alg":"RS256","kid":"rsa-1","crit":["exp"],"exp":1}"#.utf8))
        #expect(refusal("\(critical).\(payload).c2lnbmF0dXJl") == .unsupportedAlgorithm)
    }

    @Test func aBadSignatureIsRefused() throws {
        let claims = provider.claims(now: clock.now)
        // Signed by a key nobody publishes, under the kid of a published one.
        #expect(refusal(try provider.mint(header: ["alg": "RS256", "kid": "rsa-1"], claims: claims, key: "stranger")) == .badSignature)
        // A good token whose claims were changed after signing.
        let good = try provider.mint(header: ["alg": "ES256", "kid": "ec-1"], claims: claims, key: "ec").split(separator: ".")
        let forged = Base64URL.encode(try JSONSerialization.data(withJSONObject: provider.claims(now: clock.now, ["sub": "admin"])))
        #expect(refusal("\(good[0]).\(forged).\(good[2])") == .badSignature)
        // An ES256 token naming the RSA key: the key does not verify that algorithm.
        #expect(refusal(try provider.mint(header: ["alg": "ES256", "kid": "rsa-1"], claims: claims, key: "ec")) == .unknownKey)
    }

    @Test func wrongIssuerAndAudienceAreRefused() throws {
        let now = clock.now
        func minted(_ changes: [String: Any]) throws -> String {
            try provider.mint(header: ["alg": "RS256", "kid": "rsa-1"], claims: provider.claims(now: now, changes))
        }
        #expect(refusal(try minted(["iss": provider.issuer + "/"])) == .wrongIssuer)
        #expect(refusal(try minted(["iss": "https://accounts.example.com"])) == .wrongIssuer)
        #expect(refusal(try minted(["aud": "another-client"])) == .wrongAudience)
        #expect(refusal(try minted(["aud": NSNull()])) == .wrongAudience)
        // Several audiences need azp naming this client.
        #expect(refusal(try minted(["aud": [provider.clientID, "another-client"]])) == .wrongAudience)
        #expect(refusal(try minted(["aud": [provider.clientID, "another-client"], "azp": "another-client"])) == .wrongAudience)
        #expect(try verify(try minted(["aud": [provider.clientID, "another-client"], "azp": provider.clientID])).subject == "user-1")
    }

    @Test func lifetimesAreCheckedWithTheLeeway() throws {
        let now = clock.now
        func minted(_ changes: [String: Any]) throws -> String {
            try provider.mint(header: ["alg": "RS256", "kid": "rsa-1"], claims: provider.claims(now: now, changes))
        }
        #expect(refusal(try minted(["exp": Int(now) - 61, "iat": Int(now) - 600])) == .expired)
        #expect(try verify(try minted(["exp": Int(now) - 30, "iat": Int(now) - 600])).subject == "user-1")
        #expect(refusal(try minted(["nbf": Int(now) + 120])) == .notYetValid)
        #expect(refusal(try minted(["iat": Int(now) + 120])) == .notYetValid)
        #expect(try verify(try minted(["nbf": Int(now) + 30])).subject == "user-1")
        #expect(refusal(try minted(["exp": NSNull()])) == .missingClaim)
        #expect(refusal(try minted(["exp": "tomorrow"])) == .missingClaim)
        #expect(refusal(try minted(["sub": NSNull()])) == .missingClaim)
    }

    @Test func theNonceMustBeThisSignInsOne() throws {
        let now = clock.now
        let token = try provider.mint(header: ["alg": "RS256", "kid": "rsa-1"], claims: provider.claims(now: now))
        #expect(refusal(token, nonce: "another-nonce") == .nonceMismatch)
        #expect(refusal(token, nonce: "") == .nonceMismatch)
        let without = try provider.mint(header: ["alg": "RS256", "kid": "rsa-1"], claims: provider.claims(now: now, ["nonce": NSNull()]))
        #expect(refusal(without) == .nonceMismatch)
    }

    @Test func malformedTokensAreRefused() throws {
        for text in [
            "", "a.b", "a.b.c.d", "eyJhbGciOiJSUzI1NiJ9.e30.", "!!.e30.c2ln", "e30.e30.c2ln",
            String(repeating: "a", count: SignedToken.maxLength + 1),
        ] {
            #expect(refusal(text) == .malformedToken, "\(text.prefix(40))")
        }
    }

    @Test func anUnknownKidFetchesTheKeysAgainOnceAndNoMoreOften() throws {
        let party = try provider.relyingParty(clock: clock)
        let claims = provider.claims(now: clock.now)
        _ = try party.verify(
            idToken: try provider.mint(header: ["alg": "RS256", "kid": "rsa-1"], claims: claims), clientID: provider.clientID, nonce: nonce)
        let fetched = try provider.stats()["jwks"] ?? 0
        #expect(fetched == 1)
        // rsa-2 is not published yet: one fetch again, then refused; a second token at once fetches nothing.
        let rotated = try provider.mint(header: ["alg": "RS256", "kid": "rsa-2"], claims: claims, key: "rsa-2")
        clock.advance(31)
        #expect(throws: OpenIDError(.unknownKey, "no key of the provider's set signs this token")) {
            try party.verify(idToken: rotated, clientID: provider.clientID, nonce: nonce)
        }
        #expect(throws: OpenIDError.self) { try party.verify(idToken: rotated, clientID: provider.clientID, nonce: nonce) }
        let stranger = try provider.mint(header: ["alg": "RS256", "kid": "made-up"], claims: claims, key: "stranger")
        #expect(throws: OpenIDError.self) { try party.verify(idToken: stranger, clientID: provider.clientID, nonce: nonce) }
        #expect(try provider.stats()["jwks"] == 2)
        // Published now: once the interval has passed, the next such token fetches the set and verifies.
        try provider.control(["publish_rsa2": true])
        clock.advance(31)
        let rotatedNow = try provider.mint(header: ["alg": "RS256", "kid": "rsa-2"], claims: provider.claims(now: clock.now), key: "rsa-2")
        #expect(try party.verify(idToken: rotatedNow, clientID: provider.clientID, nonce: nonce).subject == "user-1")
        #expect(try provider.stats()["jwks"] == 3)
    }
}
