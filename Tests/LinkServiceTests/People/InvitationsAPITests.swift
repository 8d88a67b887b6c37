import Foundation
import LinkKit
@testable import LinkService
import Outbound
import Postgres
import Testing
import TestSupport

/// `/v1/invitations`: a one-time link, shown once and mailed, that expires, can be revoked, and joins the person
/// to the workspace with a session when accepted.
@Suite("Invitations: create, list, revoke, expire, accept")
struct InvitationsAPITests {
    /// The token of an invitation's link.
    private func token(of link: String) throws -> String {
        try #require(link.components(separatedBy: "token=").last)
    }

    private func cookieToken(_ response: TestResponse) throws -> SecretToken {
        let cookie = try #require(response.headers["Set-Cookie"])
        #expect(cookie.hasPrefix("linkd_session=") && cookie.contains("; Path=/;") && cookie.hasSuffix("; HttpOnly; SameSite=Lax"))
        let value = try #require(cookie.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last)
        return try #require(SecretToken(presented: value))
    }

    @Test func aNewPersonAcceptsOnceAndIsSignedIn() throws {
        try TestService.withPeople(configure: { $0.sessions.publicURL = "https://links.example.com" }) { service in
            let admin = try service.key(scope: .admin, role: .owner)
            let acme = try service.workspaceID()
            let created = try service.request("POST", "/v1/invitations", key: admin, json: #"{"email":"Ana@Example.com","role":"editor"}"#)
            #expect(created.status == 201, "\(created.text)")
            #expect(created.headers["Cache-Control"]?.contains("no-store") == true)
            let link = try #require(try created.json["link"]?.stringValue)
            #expect(link.hasPrefix("https://links.example.com/console/#/invitation?token="))
            #expect(try created.json["mailed"]?.boolValue == false, "no SMTP: nothing mailed")
            #expect(try created.json["invitation"]?["email"]?.stringValue == "ana@example.com")
            #expect(try created.json["invitation"]?["status"]?.stringValue == "pending")

            // The token is never listed.
            let listed = try service.request("GET", "/v1/invitations", key: admin)
            #expect(listed.status == 200)
            #expect(!listed.text.contains(try token(of: link)))
            #expect(try listed.json["items"]?.arrayValue?.count == 1)

            let accept = #"{"token":"\#(try token(of: link))","name":"Ana","password":"correct horse battery"}"#
            let accepted = try service.request("POST", "/v1/invitations/accept", json: accept)
            #expect(accepted.status == 201, "\(accepted.text)")
            #expect(try accepted.json["role"]?.stringValue == "editor")
            #expect(try accepted.json["person"]?["email"]?.stringValue == "ana@example.com")
            #expect(try accepted.json["workspace"]?["name"]?.stringValue == "acme")
            #expect(try service.isLive(try cookieToken(accepted)))
            let ana = try #require(try service.application.pool.withConnection { try PersonStore.find(email: "ana@example.com", on: $0) })
            #expect(ana.name == "Ana" && ana.hasPassword)
            #expect(try service.role(of: ana.id, in: acme) == .editor)

            // Used once.
            #expect(try service.request("POST", "/v1/invitations/accept", json: accept).status == 410)
            #expect(
                try service.request("GET", "/v1/invitations", key: admin).json["items"]?.arrayValue?.first?["status"]?.stringValue
                    == "accepted")
            // A member is not invited again.
            #expect(
                try service.request("POST", "/v1/invitations", key: admin, json: #"{"email":"ana@example.com","role":"viewer"}"#).status
                    == 409)
        }
    }

    @Test func revokedAndExpiredLinksStopWorking() throws {
        try TestService.withPeople { service in
            let admin = try service.key(scope: .admin, role: .owner)
            let first = try service.request("POST", "/v1/invitations", key: admin, json: #"{"email":"bo@example.com","role":"viewer"}"#)
                .json
            let id = try #require(first["invitation"]?["id"]?.stringValue)
            #expect(try service.request("DELETE", "/v1/invitations/\(id)", key: admin).status == 204)
            let revoked = #"{"token":"\#(try token(of: first["link"]!.stringValue!))","password":"correct horse battery"}"#
            #expect(try service.request("POST", "/v1/invitations/accept", json: revoked).status == 410)
            #expect(try service.request("DELETE", "/v1/invitations/\(UUID().canonicalText)", key: admin).status == 404)

            let second = try service.request("POST", "/v1/invitations", key: admin, json: #"{"email":"bo@example.com","role":"viewer"}"#)
                .json
            try service.application.pool.withConnection { connection in
                try connection.execute("UPDATE invitations SET expires_at = now() - interval '1 second' WHERE revoked_at IS NULL")
            }
            let expired = #"{"token":"\#(try token(of: second["link"]!.stringValue!))","password":"correct horse battery"}"#
            #expect(try service.request("POST", "/v1/invitations/accept", json: expired).status == 410)
            let statuses = try service.request("GET", "/v1/invitations", key: admin).json["items"]?.arrayValue?.compactMap {
                $0["status"]?.stringValue
            }
            #expect(statuses == ["revoked", "expired"])
        }
    }

    /// Inviting the same address again replaces the pending link.
    @Test func aNewInvitationReplacesThePendingOne() throws {
        try TestService.withPeople { service in
            let admin = try service.key(scope: .admin, role: .owner)
            let first = try service.request("POST", "/v1/invitations", key: admin, json: #"{"email":"bo@example.com","role":"viewer"}"#)
                .json
            _ = try service.request("POST", "/v1/invitations", key: admin, json: #"{"email":"bo@example.com","role":"editor"}"#)
            let old = #"{"token":"\#(try token(of: first["link"]!.stringValue!))","password":"correct horse battery"}"#
            #expect(try service.request("POST", "/v1/invitations/accept", json: old).status == 410)
        }
    }

    /// A person who has a password proves it (or is signed in); a new password must be strong enough.
    @Test func anExistingPersonGivesTheirPassword() throws {
        try TestService.withPeople { service in
            let admin = try service.key(scope: .admin, role: .owner)
            let acme = try service.workspaceID()
            let other = try service.workspaceID("globex")
            let eve = try service.member("eve@example.com", .owner, of: other, password: "eve's long password")
            let link = try service.request("POST", "/v1/invitations", key: admin, json: #"{"email":"eve@example.com","role":"admin"}"#)
                .json["link"]!.stringValue!
            let token = try token(of: link)
            #expect(try service.request("POST", "/v1/invitations/accept", json: #"{"token":"\#(token)"}"#).status == 401)
            #expect(
                try service.request("POST", "/v1/invitations/accept", json: #"{"token":"\#(token)","password":"not eve's password"}"#)
                    .status == 401)
            #expect(try service.role(of: eve.id, in: acme) == nil)
            let accepted = try service.request(
                "POST", "/v1/invitations/accept", json: #"{"token":"\#(token)","password":"eve's long password"}"#)
            #expect(accepted.status == 201, "\(accepted.text)")
            #expect(try service.role(of: eve.id, in: acme) == .admin)
            #expect(try service.role(of: eve.id, in: other) == .owner)
            #expect(try accepted.json["workspaces"]?.arrayValue?.count == 2)

            // Signed in as the person, no password is needed.
            let link2 = try service.request(
                "POST", "/v1/invitations", key: service.key(workspace: "initech", role: .owner),
                json: #"{"email":"eve@example.com","role":"viewer"}"#
            )
            .json["link"]!.stringValue!
            let session = try service.session(of: eve.id, in: other)
            let signedIn = try service.request(
                "POST", "/v1/invitations/accept", json: #"{"token":"\#(try self.token(of: link2))"}"#,
                headers: [("Cookie", "theme=dark; linkd_session=\(session.text)")])
            #expect(signedIn.status == 201, "\(signedIn.text)")
        }
    }

    @Test func badInputChangesNothing() throws {
        try TestService.withPeople { service in
            let admin = try service.key(scope: .admin, role: .owner)
            for (body, pointer) in [
                (#"{"email":"not an address","role":"viewer"}"#, "/email"), (#"{"email":"a@example.com","role":"root"}"#, "/role"),
                (#"{"email":"a@example.com"}"#, "/role"), (#"{"email":"a@example.com","role":"viewer","extra":1}"#, "/extra"),
            ] {
                let refused = try service.request("POST", "/v1/invitations", key: admin, json: body)
                #expect(refused.status == 422, "\(body): \(refused.text)")
                #expect(refused.text.contains(pointer), "\(body): \(refused.text)")
            }
            // Invitations are an owner's to send: an admin-role key invites nobody, nor does a read key.
            #expect(
                try service.request(
                    "POST", "/v1/invitations", key: service.key(scope: .admin, role: .admin),
                    json: #"{"email":"a@example.com","role":"owner"}"#
                ).status == 403)
            #expect(
                try service.request(
                    "POST", "/v1/invitations", key: service.key(scope: .read), json: #"{"email":"a@example.com","role":"viewer"}"#
                ).status == 403)
            #expect(try service.request("GET", "/v1/invitations", key: admin).json["items"]?.arrayValue?.isEmpty == true)

            let link = try service.request("POST", "/v1/invitations", key: admin, json: #"{"email":"bo@example.com","role":"viewer"}"#)
                .json["link"]!.stringValue!
            let token = try token(of: link)
            for (body, pointer) in [
                (#"{"token":"\#(token)","password":"short"}"#, "/password"), (#"{"token":"\#(token)"}"#, "/password"),
                (#"{"token":"\#(token)","password":"BO@example.com"}"#, "/password"),
                (#"{"token":"nope","password":"correct horse battery"}"#, "/token"),
            ] {
                let refused = try service.request("POST", "/v1/invitations/accept", json: body)
                #expect(refused.status == 422, "\(body): \(refused.text)")
                #expect(refused.text.contains(pointer), "\(body): \(refused.text)")
            }
            #expect(try service.application.pool.withConnection { try PersonStore.find(email: "bo@example.com", on: $0) } == nil)
            #expect(
                try service.request("POST", "/v1/invitations/accept", json: #"{"token":"\#(token)","password":"correct horse battery"}"#)
                    .status == 201)
        }
    }

    /// With SMTP the invitation is mailed: the workspace, the role, who invited, the link and its end.
    @Test func theInvitationIsMailed() throws {
        let smtp = try SMTPTestServer(.plain)
        try TestService.withPeople(configure: { $0.smtp = smtp.settings }) { service in
            let admin = try Workspace.createKey(
                pool: service.application.pool, workspace: "acme", scope: .admin, role: .owner, keyName: "ci")
            let created = try service.request(
                "POST", "/v1/invitations", key: admin, json: #"{"email":"ana@example.com","role":"editor"}"#,
                headers: [("Host", "links.example.com:8080")])
            #expect(created.status == 201)
            #expect(try created.json["mailed"]?.boolValue == true)
            let link = try #require(try created.json["link"]?.stringValue)
            #expect(link.hasPrefix("http://links.example.com:8080/console/#/invitation?token="))
            let message = try #require(try smtp.messages(awaiting: 1).first)
            #expect(message.to == ["ana@example.com"])
            #expect(message.from == "linkd@links.example.com")
            #expect(message.header("Subject") == "Join acme on linkd as editor")
            let text = message.body
            #expect(text.contains("\"acme\""))
            #expect(text.contains("an editor"))
            #expect(text.contains("The API key \"ci\""))
            #expect(text.contains(link))
            let expiresAt = try #require(try created.json["invitation"]?["expiresAt"]?.stringValue)
            #expect(text.contains(String(expiresAt.prefix(10))), "the link's end: \(expiresAt)")
        }
    }

    /// A mail server that stopped answering: invitations answer at once, the queue stays bounded (what does not
    /// fit is dropped and counted, `mailed: false`), and stopping linkd waits for one mail's bound at most.
    @Test func aSilentMailServerHoldsNothingUp() throws {
        let silent = try SilentListener()
        var settings = SMTPSettings()
        settings.url = "smtp://127.0.0.1:\(silent.port)"
        settings.startTLS = .off
        settings.timeout = .seconds(3)
        let service = try TestService(configure: { $0.smtp = settings })
        let admin = try service.key(scope: .admin, role: .owner)
        var mailed: [Bool] = []
        for index in 0..<(Mailer.capacity + 2) {
            let created = try service.request(
                "POST", "/v1/invitations", key: admin, json: #"{"email":"p\#(index)@example.com","role":"viewer"}"#)
            #expect(created.status == 201)
            mailed.append(try created.json["mailed"]?.boolValue ?? true)
        }
        let metrics = service.application.metrics
        // Every answer came while the first mail still waited on the server: no request waited for mail.
        #expect(metrics.counterValue("linkd_mail_total", labels: ["result": "sent"]) == 0)
        #expect(metrics.counterValue("linkd_mail_total", labels: ["result": "failed"]) == 0)
        #expect(mailed.contains(false), "the queue is bounded")
        #expect(metrics.counterValue("linkd_mail_total", labels: ["result": "dropped"]) == Double(mailed.filter { !$0 }.count))
        let stopping = ContinuousClock.now
        service.close()
        #expect(ContinuousClock.now - stopping < .seconds(patience), "the shutdown drops what it cannot send in time")
        #expect(metrics.counterValue("linkd_mail_total", labels: ["result": "dropped"]) >= Double(Mailer.capacity - 2))
    }

    /// A mail server that is down does not fail the invitation; the failure is counted and logged.
    @Test func aMailFailureIsVisibleButNeverBlocks() throws {
        var settings = try SMTPTestServer(.plain).settings // stopped at once: nothing listens on its port
        settings.connectTimeout = .seconds(5)
        try TestService.withPeople(configure: { $0.smtp = settings }) { service in
            let admin = try service.key(scope: .admin, role: .owner)
            let created = try service.request("POST", "/v1/invitations", key: admin, json: #"{"email":"ana@example.com","role":"editor"}"#)
            #expect(created.status == 201)
            try waitUntil("the failed mail counted") {
                service.application.metrics.counterValue("linkd_mail_total", labels: ["result": "failed"]) == 1
            }
            #expect(try service.request("GET", "/metrics").text.contains(#"linkd_mail_total{result="failed"} 1"#))
        }
    }
}
