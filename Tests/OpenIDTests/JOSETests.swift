import Foundation
import LinkKit
import OpenID
import Testing

/// The pieces under token verification that need no provider: base64url and JWK parsing.
struct JOSETests {
    @Test func base64URLRoundTripsAndRefusesOtherAlphabets() {
        for count in 0..<40 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
        #expect(Base64URL.encode(Array("?>?".utf8)) == "Pz4_")
        #expect(Base64URL.decode("Pz4/") == nil)
        #expect(Base64URL.decode("Pz4=") == nil)
        #expect(Base64URL.decode("P") == nil)
        #expect(Base64URL.decode("Pz4 ") == nil)
    }

    @Test func keysOfOtherKindsAreLeftOutAndMalformedOnesRefused() throws {
        let set = try JSONWebKeySet(
            json: Array(
                #"""
                {"keys": [{"kty": "oct", "k": "c2VjcmV0"}, {"kty": "EC", "crv": "P-384", "x": "AA", "y": "AA"},
                          {"kty": "RSA", "use": "enc", "n": "AQAB", "e": "AQAB"}, {"kty": "RSA", "alg": "RS512", "n": "AQAB", "e": "AQAB"}]}
                """#.utf8))
        #expect(set.keys.isEmpty)
        // A modulus of 1024 bits is too short.
        let short = Base64URL.encode([0xC1] + [UInt8](repeating: 0x5A, count: 127))
        #expect(throws: OpenIDError.self) {
            try JSONWebKeySet(json: Array(#"{"keys": [{"kty": "RSA", "n": "\#(short)", "e": "AQAB"}]}"#.utf8))
        }
        // A point that is not on P-256.
        let coordinate = Base64URL.encode([UInt8](repeating: 1, count: 32))
        #expect(throws: OpenIDError.self) {
            try JSONWebKeySet(json: Array(#"{"keys": [{"kty": "EC", "crv": "P-256", "x": "\#(coordinate)", "y": "\#(coordinate)"}]}"#.utf8))
        }
        #expect(throws: OpenIDError.self) { try JSONWebKeySet(json: Array(#"{"keys": {}}"#.utf8)) }
        #expect(throws: OpenIDError.self) { try JSONWebKeySet(json: Array("not json".utf8)) }
    }
}
