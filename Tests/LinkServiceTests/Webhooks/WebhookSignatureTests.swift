import Foundation
import Testing
import TestSupport
@testable import LinkService

/// The Standard Webhooks signature (docs/WEBHOOKS.md, "Signatures"): the specification's reference library for
/// Python (PyPI `standardwebhooks`, installed by scripts/install-deps in `.build/standardwebhooks-venv`) computed
/// the fixed vector, and verifies what linkd signs.
@Suite("Webhook signatures")
struct WebhookSignatureTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let python = root.appendingPathComponent(".build/standardwebhooks-venv/bin/python3").path

    /// RFC 4231, test case 2: libcrypto's HMAC-SHA256 as called here (a short key, a short message).
    @Test func hmacMatchesRFC4231() {
        let mac = WebhookSignature.hmacSHA256(key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8))
        #expect(mac.map { String(format: "%02x", $0) }.joined() == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    /// The vector `standardwebhooks` 1.1.0 gives: `Webhook(secret).sign(id, datetime.fromtimestamp(1764700000), body)`
    /// for the key 0x00...0x1f, with a body holding a non-ASCII character (signed as its UTF-8 bytes).
    @Test func signsLikeTheReferenceLibrary() throws {
        let secret = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
        let signer = try #require(WebhookSignature(secret: secret))
        #expect(signer.key == Array(0..<32))
        #expect(signer.secret == secret)
        let body = Array(#"{"type":"link.created","timestamp":"2025-12-02T18:26:40Z","data":{"id":"é"}}"#.utf8)
        let expected = "v1,ngUr1sImKc7eqIxR4RMjWrpMLRVU5m+D7ZFE/xpzBsU="
        #expect(signer.signature(id: "msg_2Lq0LNJIwu3ZEwWdCjpHbR9pTYR", timestamp: 1_764_700_000, body: body) == expected)
        let headers = signer.headers(id: "msg_2Lq0LNJIwu3ZEwWdCjpHbR9pTYR", timestamp: 1_764_700_000, body: body)
        #expect(headers.map(\.name) == ["webhook-id", "webhook-timestamp", "webhook-signature"])
        #expect(headers.map(\.value) == ["msg_2Lq0LNJIwu3ZEwWdCjpHbR9pTYR", "1764700000", expected])
        // One byte changed in the body, the id or the timestamp changes the signature.
        #expect(signer.signature(id: "msg_2Lq0LNJIwu3ZEwWdCjpHbR9pTYS", timestamp: 1_764_700_000, body: body) != expected)
        #expect(signer.signature(id: "msg_2Lq0LNJIwu3ZEwWdCjpHbR9pTYR", timestamp: 1_764_700_001, body: body) != expected)
        #expect(
            signer.signature(id: "msg_2Lq0LNJIwu3ZEwWdCjpHbR9pTYR", timestamp: 1_764_700_000, body: body.dropLast() + [0x7e]) != expected)
    }

    /// Secrets are `whsec_` and base64 of 24 to 64 bytes; anything else is refused. Unpadded base64 is read, as
    /// the reference library reads it.
    @Test func readsOnlyWellFormedSecrets() {
        #expect(WebhookSignature(secret: "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")?.key == Array(0..<32))
        #expect(WebhookSignature(secret: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=") == nil) // no prefix
        #expect(WebhookSignature(secret: "whsec_not base64!") == nil)
        #expect(WebhookSignature(secret: "whsec_" + Data(Array(repeating: 1, count: 23)).base64EncodedString()) == nil)
        #expect(WebhookSignature(secret: "whsec_" + Data(Array(repeating: 1, count: 24)).base64EncodedString()) != nil)
        #expect(WebhookSignature(secret: "whsec_" + Data(Array(repeating: 1, count: 64)).base64EncodedString()) != nil)
        #expect(WebhookSignature(secret: "whsec_" + Data(Array(repeating: 1, count: 65)).base64EncodedString()) == nil)
        #expect(WebhookSignature(key: []) == nil)
    }

    /// A generated key is 32 random bytes, new each time, and its secret reads back to it.
    @Test func generatedKeysAreFreshAndRoundTrip() {
        let first = WebhookSignature.generate(), second = WebhookSignature.generate()
        #expect(first.key.count == 32)
        #expect(first != second)
        #expect(WebhookSignature(secret: first.secret) == first)
    }

    /// The reference library verifies what linkd signs now (it refuses timestamps more than five minutes off), and
    /// refuses the same headers over a changed body, so the check can fail.
    @Test func theReferenceLibraryVerifiesLinkdSignatures() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.python), "run scripts/install-deps: \(Self.python) is missing")
        let signer = WebhookSignature.generate()
        let body = #"{"type":"link.updated","timestamp":"2026-12-02T17:00:00Z","data":{"url":"https://links.example.com/ü?a=1&b=\"2\""}}"#
        let id = "msg_\(UUID().uuidString)"
        let headers = signer.headers(id: id, timestamp: Int64(Date().timeIntervalSince1970), body: Array(body.utf8))
        let script = """
            import json, sys
            from standardwebhooks import Webhook, WebhookVerificationError
            secret, headers = sys.argv[1], json.loads(sys.argv[2])
            body = sys.stdin.buffer.read()
            wh = Webhook(secret)
            print(json.dumps(wh.verify(body, headers), sort_keys=True))
            try:
                wh.verify(body + b" ", headers)
                print("tampered body accepted")
            except WebhookVerificationError:
                print("tampered body refused")
            """
        let headerJSON = String(
            decoding: try JSONSerialization.data(withJSONObject: Dictionary(uniqueKeysWithValues: headers.map { ($0.name, $0.value) })),
            as: UTF8.self)
        let verifier = try Subprocess(Self.python, ["-c", script, signer.secret, headerJSON], input: Array(body.utf8), mergeErrors: true)
        #expect(try verifier.wait(timeout: 60) == 0, "\(verifier.standardOutput.suffix(3000))")
        let lines = verifier.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                #"{"data": {"url": "https://links.example.com/\u00fc?a=1&b=\"2\""}, "timestamp": "2026-12-02T17:00:00Z", "type": "link.updated"}"#,
                "tampered body refused",
            ])
    }
}
