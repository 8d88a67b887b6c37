import Foundation
import Glibc
@testable import Outbound
import Testing
import TestSupport

/// Mail through libcurl's SMTP to a real server (python3-aiosmtpd) started by each test: plain, STARTTLS, smtps.
@Suite("SMTP: mail sent through libcurl to a real server")
struct SMTPClientTests {
    private func settings(_ url: String, startTLS: SMTPSettings.StartTLS = .required, caFile: String? = nil) -> SMTPSettings {
        var settings = SMTPSettings()
        settings.url = url
        settings.from = "linkd@example.com"
        settings.startTLS = startTLS
        settings.caFile = caFile
        return settings
    }

    private let mail = Mail(
        from: "linkd@example.com", to: "ana@example.org", subject: "Join acme on linkd — as editor",
        text: "Hello Ana,\n.a line that starts with a dot\nthe link: https://links.example.com/console/\n")

    /// The envelope, the headers and the text arrive as sent; a non-ASCII subject and text survive the trip.
    @Test func plainMailArrivesWhole() throws {
        let server = try SMTPTestServer(.plain)
        let client = SMTPClient(settings: settings("smtp://127.0.0.1:\(server.port)", startTLS: .off))
        let sent = client.send(mail)
        #expect(throws: Never.self) { try sent.get() }
        let message = try #require(try server.messages(awaiting: 1).first)
        #expect(message.from == "linkd@example.com")
        #expect(message.to == ["ana@example.org"])
        #expect(!message.tls)
        #expect(message.header("To") == "<ana@example.org>")
        let subject = try #require(message.header("Subject"))
        let decoded = subject.split(separator: " ").map { word -> String in
            let parts = word.split(separator: "?")
            return parts.count == 5 ? String(data: Data(base64Encoded: String(parts[3]))!, encoding: .utf8)! : String(word)
        }.joined()
        #expect(decoded == "Join acme on linkd — as editor")
        #expect(message.body.contains(".a line that starts with a dot\r\n"), "libcurl escapes the dot, the server unescapes it")
        #expect(message.body.contains("Hello Ana,\r\n"))
    }

    /// With STARTTLS required the session is encrypted and the URL's credentials authenticate it.
    @Test func startTLSEncryptsAndAuthenticates() throws {
        let certificates = try TestCertificates(names: ["localhost"])
        defer { certificates.remove() }
        let server = try SMTPTestServer(.starttls, certificates: certificates, credentials: ("linkd", "p@ss word"))
        let client = SMTPClient(
            settings: settings(
                "smtp://linkd:p%40ss%20word@localhost:\(server.port)",
                caFile: certificates.caCertificate))
        #expect(throws: Never.self) { try client.send(mail).get() }
        let message = try #require(try server.messages(awaiting: 1).first)
        #expect(message.tls)
        #expect(message.authenticated)
    }

    /// smtps:// is TLS from the first byte, verified against the CA given.
    @Test func smtpsIsTLSFromTheStart() throws {
        let certificates = try TestCertificates(names: ["localhost"])
        defer { certificates.remove() }
        let server = try SMTPTestServer(.smtps, certificates: certificates)
        let client = SMTPClient(settings: settings("smtps://localhost:\(server.port)", caFile: certificates.caCertificate))
        #expect(throws: Never.self) { try client.send(mail).get() }
        #expect(try server.messages(awaiting: 1).first?.tls == true)

        // Without the CA the certificate is not trusted: nothing is sent.
        let untrusting = SMTPClient(settings: settings("smtps://localhost:\(server.port)"))
        guard case .failure(let failure) = untrusting.send(mail) else { Issue.record("sent to an untrusted server"); return }
        #expect(failure.kind == .tls)
    }

    /// STARTTLS required against a server that does not offer it: refused, never sent in plain text.
    @Test func requiredStartTLSRefusesAPlainServer() throws {
        let server = try SMTPTestServer(.plain)
        let client = SMTPClient(settings: settings("smtp://127.0.0.1:\(server.port)", startTLS: .required))
        guard case .failure(let failure) = client.send(mail) else { Issue.record("sent without TLS"); return }
        #expect(failure.kind == .tls)
        #expect(try server.messages.isEmpty)
    }

    /// A server that never answers costs the configured bound, not a thread forever.
    @Test func aSilentServerTimesOut() throws {
        let listener = try SilentListener()
        var slow = settings("smtp://127.0.0.1:\(listener.port)", startTLS: .off)
        slow.timeout = .seconds(1)
        let started = ContinuousClock.now
        guard case .failure(let failure) = SMTPClient(settings: slow).send(mail) else { Issue.record("a silent server took mail"); return }
        #expect(failure.kind == .timeout)
        #expect(ContinuousClock.now - started < .seconds(patience))
    }

    @Test func addressesAndURLs() {
        #expect(Mail.isAddress("ana@example.org"))
        #expect(!Mail.isAddress("ana@example.org>\r\nBcc: x@y.z"))
        #expect(!Mail.isAddress("no-at-sign"))
        #expect(SMTPSettings.isValidURL("smtp://mail.example.com:587"))
        #expect(SMTPSettings.isValidURL("smtps://user:secret@mail.example.com"))
        #expect(!SMTPSettings.isValidURL("http://mail.example.com"))
        #expect(!SMTPSettings.isValidURL("smtp://"))
        var settings = SMTPSettings()
        settings.url = "smtps://user:secret@mail.example.com"
        #expect(!settings.redactedURL.contains("secret"))
    }
}
