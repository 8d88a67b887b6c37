import Foundation
import Testing
@testable import LinkService

/// Secrets sealed at rest (AES-256-GCM, libcrypto) and the retry schedule.
@Suite("Webhook secrets and retries")
struct WebhookSecretKeysTests {
    @Test func sealedSecretsOpenOnlyWithTheirKeyAndOwner() throws {
        let old = WebhookSecretKeys.Key.generate(id: "2025")
        let new = WebhookSecretKeys.Key.generate(id: "2026")
        let owner = UUID()
        let secret = WebhookSignature.generate().key
        let sealed = try #require(WebhookSecretKeys([old])).seal(secret, for: owner)
        #expect(sealed.count == 12 + secret.count + 16)
        #expect(sealed != (try #require(WebhookSecretKeys([old])).seal(secret, for: owner)), "a fresh nonce each time")
        // Rotation: the new key seals, the old one still opens what it sealed.
        let rotated = try #require(WebhookSecretKeys([new, old]))
        #expect(rotated.sealingID == "2026")
        #expect(rotated.unseal(sealed, keyID: "2025", for: owner) == secret)
        #expect(rotated.unseal(sealed, keyID: "2026", for: owner) == nil, "the wrong key")
        #expect(rotated.unseal(sealed, keyID: "2025", for: UUID()) == nil, "another subscription's row")
        var tampered = sealed
        tampered[20] ^= 1
        #expect(rotated.unseal(tampered, keyID: "2025", for: owner) == nil, "a changed byte")
        #expect(WebhookSecretKeys([new])!.unseal(sealed, keyID: "2025", for: owner) == nil, "a key not configured")
    }

    @Test func keysAreReadStrictly() {
        let text = WebhookSecretKeys.Key.generate(id: "k1").text
        #expect(WebhookSecretKeys.Key(text)?.id == "k1")
        #expect(WebhookSecretKeys.Key("k1:" + Data(repeating: 7, count: 31).base64EncodedString()) == nil, "31 bytes")
        #expect(WebhookSecretKeys.Key("no-colon") == nil)
        #expect(WebhookSecretKeys.Key("bad id:" + Data(repeating: 7, count: 32).base64EncodedString()) == nil)
        #expect(WebhookSecretKeys.Key(":" + Data(repeating: 7, count: 32).base64EncodedString()) == nil)
        #expect(WebhookSecretKeys([]) == nil)
        let key = WebhookSecretKeys.Key.generate(id: "same")
        #expect(WebhookSecretKeys([key, key]) == nil, "an id twice")
    }

    /// Seconds first (a receiver's hiccup costs under a minute), hours later, and with the default failure limit more
    /// than a day of retries even when every wait is jittered short.
    @Test func retriesStartWithinSecondsAndLastMoreThanADay() {
        #expect(WebhookRetries.delay(after: 1, random: 1) <= .seconds(3))
        let firstThree = (1...3).map { WebhookRetries.delay(after: $0, random: 1) }.reduce(Duration.zero, +)
        #expect(firstThree <= .seconds(60))
        let limit = WebhookConfiguration().failureLimit
        let shortest = (1..<limit).map { WebhookRetries.delay(after: $0, random: 0) }.reduce(Duration.zero, +)
        #expect(shortest >= .seconds(24 * 3600), "\(shortest)")
        #expect(WebhookRetries.delay(after: 50, random: 0.5) == .seconds(28_800))
        #expect(WebhookRetries.delay(after: 4, random: 0) < WebhookRetries.delay(after: 4, random: 1), "jitter")
    }
}
