import Foundation
import Testing
@testable import LinkService

@Suite("SHA-256, hex and visitor hashes")
struct SHA256Tests {
    /// FIPS 180-2 test vectors, from arrays, other collections and strings alike.
    @Test func knownVectors() {
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        #expect(SHA256.hex("abc") == abc)
        #expect(SHA256.hex(Array("abc".utf8)) == abc)
        #expect(SHA256.hex("abc".utf8) == abc)
        #expect(SHA256.hex(Set([UInt8(97)])) == SHA256.hex("a")) // no contiguous storage: copied once
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.digest(Array("abc".utf8)).count == 32)
    }

    /// The visitor hash is the first 128 bits of SHA-256("salt\nip\nuser agent"), so every node (and every
    /// version) hashes one visitor the same way.
    @Test func visitorHashIsTheTruncatedDigestOfSaltIPAndAgent() {
        let hasher = VisitorHasher()
        let day = VisitorHasher.day(of: Date())
        hasher.install([day: "salt"])
        let hash = hasher.hash(ip: "192.0.2.1", userAgent: "Agent/1.0")
        #expect(hash == String(SHA256.hex("salt\n192.0.2.1\nAgent/1.0").prefix(32)))
        #expect(hasher.hash(ip: "192.0.2.1", userAgent: nil) == String(SHA256.hex("salt\n192.0.2.1\n").prefix(32)))
    }
}
