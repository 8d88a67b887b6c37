import Foundation
import LinkKit
@testable import LinkService
import Outbound
import Testing
import TestSupport

/// `POST /v1/password-resets`: always 202; with SMTP and a public URL, the person is mailed a one-time
/// reset-password link that `OneTimeLinkStore` consumes once.
@Suite("Password resets: a one-time link by mail")
struct PasswordResetTests {
    @Test func aKnownAddressIsMailedAResetLink() throws {
        let smtp = try SMTPTestServer(.plain)
        try TestService.withPeople(configure: {
            $0.smtp = smtp.settings; $0.sessions.publicURL = "https://links.example.com/"
        }) { service in
            let acme = try service.workspaceID()
            _ = try service.member("ana@example.com", .editor, of: acme, password: "ana's long password")
            // An unknown address first: same answer, no mail (its job runs before the next one's, in order).
            for email in ["nobody@example.com", "ANA@example.com"] {
                let answer = try service.request("POST", "/v1/password-resets", json: #"{"email":"\#(email)"}"#)
                #expect(answer.status == 202)
                #expect(try answer.json["detail"]?.stringValue?.contains("If an account") == true)
            }
            let message = try #require(try smtp.messages(awaiting: 1).first)
            #expect(message.to == ["ana@example.com"])
            #expect(message.header("Subject") == "Reset your linkd password")
            #expect(message.body.contains("\"acme\""))
            let link = try #require(message.body.split(whereSeparator: \.isNewline).first { $0.hasPrefix("https://") })
            #expect(link.hasPrefix("https://links.example.com/console/#/password?token="))
            let text = try #require(link.components(separatedBy: "token=").last)
            let token = try #require(SecretToken(presented: text[...]))
            let uses = try service.application.pool.withConnection { connection -> [OneTimeLinkStore.Purpose?] in
                [
                    try OneTimeLinkStore.consume(token, on: connection)?.purpose,
                    try OneTimeLinkStore.consume(token, on: connection)?.purpose,
                ]
            }
            // A reset link, used once.
            #expect(uses == [.resetPassword, nil])
            // Asked again at once: not mailed again (a marker mail to another person shows the queue went past it).
            _ = try service.member("bo@example.com", .viewer, of: acme)
            #expect(try service.request("POST", "/v1/password-resets", json: #"{"email":"ana@example.com"}"#).status == 202)
            #expect(try service.request("POST", "/v1/password-resets", json: #"{"email":"bo@example.com"}"#).status == 202)
            #expect(try smtp.messages(awaiting: 2).map(\.to) == [["ana@example.com"], ["bo@example.com"]])
        }
    }

    @Test func withoutMailTheAnswerIsTheSame() throws {
        try TestService.withPeople { service in
            let acme = try service.workspaceID()
            try service.member("ana@example.com", .editor, of: acme)
            #expect(try service.request("POST", "/v1/password-resets", json: #"{"email":"ana@example.com"}"#).status == 202)
            #expect(try service.request("POST", "/v1/password-resets", json: #"{"email":"nobody@example.com"}"#).status == 202)
            let bad = try service.request("POST", "/v1/password-resets", json: #"{"email":"nope"}"#)
            #expect(bad.status == 422)
            #expect(bad.text.contains("/email"))
        }
    }
}
