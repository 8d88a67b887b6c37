import Foundation
import HTTPServer
import LinkKit
@testable import LinkService
import Postgres
import Synchronization
import Testing
import TestSupport

/// Signing in with a password, the session cookie, and what it may do (docs/PEOPLE.md, "Signing in", "Sessions").
@Suite("People: signing in and sessions")
struct SessionsAPITests {
    /// The cookie has the contract's attributes; with it the person acts in their workspace with their role.
    @Test func signInSetsTheCookieThatAuthenticates() throws {
        try TestService.people { service in
            try service.person("ops@example.com", in: [("acme", .owner), ("beta", .viewer)])
            let response = try service.signIn("Ops@Example.com")
            #expect(response.status == 201, "\(response.text)")
            #expect(response.sessionCookieAttributes.isSuperset(of: ["path=/", "httponly", "samesite=lax"]))
            #expect(!response.sessionCookieAttributes.contains("secure"), "plain HTTP gets no Secure cookie")
            #expect(response.headers["Cache-Control"] == "no-store")
            let signedIn = try response.json
            #expect(signedIn["via"]?.stringValue == "session")
            #expect(signedIn["person"]?["email"]?.stringValue == "ops@example.com")
            #expect(signedIn["workspace"]?["name"]?.stringValue == "acme")
            #expect(signedIn["role"]?.stringValue == "owner")
            #expect(signedIn["workspaces"]?.arrayValue?.count == 2)
            #expect(signedIn["session"]?["current"]?.boolValue == true)

            let cookie = try #require(response.sessionCookie)
            let whoami = try service.request("GET", "/v1/whoami", cookie: cookie, origin: nil)
            #expect(whoami.status == 200, "\(whoami.text)")
            #expect(try whoami.json["session"]?["id"]?.stringValue == signedIn["session"]?["id"]?.stringValue)
            #expect(try whoami.json["key"] == .null)
            // A write from the console's own origin.
            let team = try service.request("POST", "/v1/teams", cookie: cookie, json: #"{"teamId":"ABCDE12345","name":"Acme"}"#)
            #expect(team.status == 201, "\(team.text)")
            // A key still says it is a key.
            let key = try service.request("GET", "/v1/whoami", key: try service.key())
            #expect(try key.json["via"]?.stringValue == "key")
            #expect(try key.json["person"] == .null)
        }
    }

    /// `Secure` when the request came over HTTPS through a trusted proxy; a proxy not trusted cannot say so.
    @Test func cookieIsSecureBehindATrustedProxyOverHTTPS() throws {
        try TestService.people({ $0.server.trustedProxies = TrustedProxies(parsing: "127.0.0.1")! }) { service in
            try service.person("ops@example.com")
            let https = try service.signIn("ops@example.com", headers: [("X-Forwarded-For", "192.0.2.7"), ("X-Forwarded-Proto", "https")])
            #expect(https.status == 201, "\(https.text)")
            #expect(https.sessionCookieAttributes.contains("secure"))
            #expect(try https.json["session"]?["address"]?.stringValue == "192.0.2.7")
            let http = try service.signIn("ops@example.com", headers: [("X-Forwarded-For", "192.0.2.7"), ("X-Forwarded-Proto", "http")])
            #expect(!http.sessionCookieAttributes.contains("secure"))
        }
        try TestService.people { service in
            try service.person("ops@example.com")
            let forged = try service.signIn("ops@example.com", headers: [("X-Forwarded-Proto", "https")])
            #expect(forged.status == 201)
            #expect(!forged.sessionCookieAttributes.contains("secure"), "forwarding headers of a peer not trusted are ignored")
        }
    }

    /// A wrong password and an unknown email get the same answer, and no cookie.
    @Test func wrongPasswordAndUnknownEmailAnswerAlike() throws {
        try TestService.people { service in
            try service.person("ops@example.com")
            let wrong = try service.signIn("ops@example.com", "not the password at all")
            let unknown = try service.signIn("nobody@example.com", "not the password at all")
            let passwordless = try service.application.pool.withConnection { try PersonStore.ensure(email: "new@example.com", on: $0) }
            let noPassword = try service.signIn(passwordless.email, "not the password at all")
            for response in [wrong, unknown, noPassword] {
                #expect(response.status == 401)
                #expect(response.sessionCookie == nil)
                #expect(try response.json["detail"] == wrong.json["detail"])
                #expect(try response.json["type"] == wrong.json["type"])
            }
        }
    }

    /// An unknown email takes about as long as a wrong password, with the real Argon2id parameters.
    @Test func unknownEmailTakesTheTimeOfAWrongPassword() throws {
        try TestService.with(configure: {
            $0.sessions.failuresPerAccount = 100; $0.sessions.failuresPerAddress = 100
        }) { service in
            try service.person("ops@example.com", hasher: PasswordHasher())
            func median(_ email: String) throws -> Double {
                var times: [Double] = []
                for _ in 0..<5 {
                    let start = ContinuousClock.now
                    #expect(try service.signIn(email, "not the password at all").status == 401)
                    let elapsed = ContinuousClock.now - start
                    times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
                }
                return times.sorted()[2]
            }
            _ = try median("warm@example.com")
            let wrong = try median("ops@example.com")
            let unknown = try median("nobody@example.com")
            #expect(unknown > wrong * 0.5 && unknown < wrong * 2, "wrong password \(wrong) s, unknown email \(unknown) s")
        }
    }

    /// Many wrong passwords at once get no more tries than the account's limit; the rest wait (429, Retry-After).
    @Test func throttlingHoldsUnderAParallelGuessingRun() throws {
        try TestService.people({ $0.sessions.failuresPerAccount = 5 }) { service in
            try service.person("ops@example.com")
            let statuses = Mutex<[Int]>([])
            let retryAfter = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 40) { index in
                let response = try? service.signIn("ops@example.com", "guess number \(index) here")
                statuses.withLock { $0.append(response?.status ?? 0) }
                if let value = response?.headers["Retry-After"] { retryAfter.withLock { $0.append(value) } }
            }
            let all = statuses.withLock { $0 }
            #expect(all.filter { $0 == 401 }.count == 5, "\(all)")
            #expect(all.filter { $0 == 429 }.count == 35, "\(all)")
            #expect(retryAfter.withLock { $0 }.allSatisfy { Int($0).map { $0 > 0 && $0 <= 900 } ?? false })
            // The right password waits too: the account is locked for the window, whoever asks.
            #expect(try service.signIn("ops@example.com").status == 429)
            // Another account from another address is not affected.
            try service.person("dev@example.com")
            #expect(try service.signIn("dev@example.com").status == 201)
        }
    }

    /// One client address trying many accounts is limited too, whether the accounts exist or not.
    @Test func throttlingPerClientAddress() throws {
        try TestService.people({ $0.sessions.failuresPerAddress = 6 }) { service in
            try service.person("ops@example.com")
            let statuses = Mutex<[Int]>([])
            DispatchQueue.concurrentPerform(iterations: 20) { index in
                let status = (try? service.signIn("someone\(index)@example.com", "not the password at all").status) ?? 0
                statuses.withLock { $0.append(status) }
            }
            let all = statuses.withLock { $0 }
            #expect(all.filter { $0 == 401 }.count == 6, "\(all)")
            #expect(all.filter { $0 == 429 }.count == 14, "\(all)")
            #expect(try service.signIn("ops@example.com").status == 429)
        }
    }

    /// The throttle's memory is a fixed table whatever is tried.
    @Test func throttleMemoryIsBounded() {
        let throttle = SignInThrottle(perAccount: 3, perAddress: 1_000_000, window: 900, slots: 64)
        for index in 0..<10_000 {
            _ = throttle.begin(email: "user\(index)@example.com", address: "192.0.2.\(index % 250)")
        }
        // 10,000 accounts in 64 slots: every slot is past the limit, so a new account is refused, never forgotten.
        if case .success = throttle.begin(email: "fresh@example.com", address: "198.51.100.1") {
            Issue.record("a full table must refuse, not forget")
        }
    }

    /// Signing out ends the session at once: its cookie, cached a moment ago, authenticates nobody.
    @Test func signOutIsEffectiveAtOnce() throws {
        try TestService.people { service in
            try service.person("ops@example.com")
            let cookie = try service.session("ops@example.com")
            #expect(try service.request("GET", "/v1/whoami", cookie: cookie).status == 200)
            #expect(try service.request("GET", "/v1/whoami", cookie: cookie).status == 200, "served from the cache")
            let out = try service.request("DELETE", "/v1/sessions/current", cookie: cookie)
            #expect(out.status == 204, "\(out.text)")
            #expect(out.headers.values("Set-Cookie").contains { $0.hasPrefix("linkd_session=;") && $0.contains("Max-Age=0") })
            #expect(try service.request("GET", "/v1/whoami", cookie: cookie).status == 401)
        }
    }

    /// Sign-ins and sign-outs are in the workspace's audit log: who, from where, how they signed in.
    @Test func signInsAndSignOutsAreAudited() throws {
        try TestService.people { service in
            let person = try service.person("ops@example.com")
            let laptop = try service.session("ops@example.com")
            let phone = try service.session("ops@example.com")
            #expect(try service.request("DELETE", "/v1/sessions/current", cookie: laptop).status == 204)
            #expect(try service.request("DELETE", "/v1/sessions", cookie: phone).status == 204)
            let audit = try Fixture.expect(200, service.request("GET", "/v1/audit?person=\(person.canonicalText)", key: try service.key()))
            let items = try #require(try audit.json["items"]?.arrayValue)
            let seen = items.map { "\($0["action"]?.stringValue ?? "") \($0["resourceType"]?.stringValue ?? "")" }
            #expect(seen.sorted() == ["create session", "create session", "delete session", "delete sessions"], "\(seen)")
            #expect(items.allSatisfy { $0["actor"]?["name"]?.stringValue == "ops@example.com" })
            #expect(items.allSatisfy { $0["address"]?.stringValue == "127.0.0.1" })
            #expect(items.contains { $0["after"]?["via"]?.stringValue == "password" })
        }
    }

    /// Sign out everywhere ends every session of the person, on this node and on another one (its change feed).
    @Test func signOutEverywhereReachesEveryNode() throws {
        try TestService.people { first in
            var configuration = TestService.configuration(first.database!.parameters)
            configuration.sessions.passwordHasher = .forTests
            let second = try TestService(parameters: first.database!.parameters) { $0 = configuration }
            defer { second.close() }
            try first.person("ops@example.com")
            let laptop = try first.session("ops@example.com")
            let phone = try first.session("ops@example.com")
            // The second node keeps both sessions in its cache.
            #expect(try second.request("GET", "/v1/whoami", cookie: laptop).status == 200)
            #expect(try second.request("GET", "/v1/whoami", cookie: phone).status == 200)
            let sessions = try first.request("GET", "/v1/sessions", cookie: phone)
            #expect(try sessions.json["items"]?.arrayValue?.count == 2)
            #expect(try first.request("DELETE", "/v1/sessions", cookie: phone).status == 204)
            #expect(try first.request("GET", "/v1/whoami", cookie: laptop).status == 401)
            // Once the other node's change feed has come past the sign-out, its cache holds neither session
            // (long before their cache lifetime would have ended them).
            try second.waitForChangeFeed()
            #expect(try second.request("GET", "/v1/whoami", cookie: laptop).status == 401)
            #expect(try second.request("GET", "/v1/whoami", cookie: phone).status == 401)
        }
    }

    /// A person lists their sessions and ends another one; a key is nobody's session.
    @Test func listAndEndOneSession() throws {
        try TestService.people { service in
            try service.person("ops@example.com")
            let laptop = try service.session("ops@example.com")
            let phone = try service.session("ops@example.com")
            let listed = try service.request("GET", "/v1/sessions", cookie: laptop)
            #expect(listed.status == 200, "\(listed.text)")
            let items = try #require(try listed.json["items"]?.arrayValue)
            #expect(items.count == 2)
            #expect(items.filter { $0["current"]?.boolValue == true }.count == 1)
            let other = try #require(items.first { $0["current"]?.boolValue == false }?["id"]?.stringValue)
            #expect(try service.request("DELETE", "/v1/sessions/\(other)", cookie: laptop).status == 204)
            #expect(try service.request("GET", "/v1/whoami", cookie: phone).status == 401)
            #expect(try service.request("GET", "/v1/whoami", cookie: laptop).status == 200)
            #expect(try service.request("DELETE", "/v1/sessions/\(other)", cookie: laptop).status == 404)
            #expect(try service.request("GET", "/v1/sessions", key: try service.key()).status == 403)
        }
    }

    /// A person switches to another of their workspaces and acts there with their role there.
    @Test func switchingWorkspaceActsWithTheRoleThere() throws {
        try TestService.people { service in
            try service.person("ops@example.com", in: [("acme", .owner), ("beta", .viewer)])
            _ = try service.workspace("gamma")
            let cookie = try service.session("ops@example.com")
            let beta = try service.workspace("beta")
            let switched = try service.request(
                "PUT", "/v1/sessions/current/workspace", cookie: cookie, json: #"{"workspace":"\#(beta.uuidString)"}"#)
            #expect(switched.status == 200, "\(switched.text)")
            #expect(try switched.json["workspace"]?["name"]?.stringValue == "beta")
            #expect(try switched.json["role"]?.stringValue == "viewer")
            let whoami = try service.request("GET", "/v1/whoami", cookie: cookie)
            #expect(try whoami.json["workspace"]?["name"]?.stringValue == "beta", "the cached session follows at once")
            #expect(try whoami.json["scope"]?.stringValue == "read")
            let write = try service.request("POST", "/v1/teams", cookie: cookie, json: #"{"teamId":"ABCDE12345","name":"Acme"}"#)
            #expect(write.status == 403, "\(write.text)")
            let gamma = try service.workspace("gamma")
            let foreign = try service.request(
                "PUT", "/v1/sessions/current/workspace", cookie: cookie, json: #"{"workspace":"\#(gamma.uuidString)"}"#)
            #expect(foreign.status == 422)
            #expect(try foreign.json["errors"]?.arrayValue?.first?["pointer"]?.stringValue == "/workspace")
        }
    }

    /// A member's role changed in a write that says so (`ChangeSet.sessionsChanged`, as the members' endpoints do)
    /// holds at once for their sessions, cached or not.
    @Test func aRoleChangeHoldsAtOnceForTheSessions() throws {
        try TestService.people { service in
            let person = try service.person("ops@example.com")
            let cookie = try service.session("ops@example.com")
            #expect(try service.request("GET", "/v1/whoami", cookie: cookie).json["role"]?.stringValue == "owner")
            let acme = try service.workspace("acme")
            try service.application.catalogChanges.commit { connection, changed in
                try MembershipStore.set(person, of: acme, role: .viewer, on: connection)
                try changed.sessionsChanged(person: person, on: connection)
            }
            let whoami = try service.request("GET", "/v1/whoami", cookie: cookie)
            #expect(try whoami.json["role"]?.stringValue == "viewer")
            #expect(try whoami.json["scope"]?.stringValue == "read")
            try service.application.catalogChanges.commit { connection, changed in
                try connection.execute("DELETE FROM memberships WHERE person_id = \(person)")
                try changed.sessionsChanged(person: person, on: connection)
            }
            #expect(try service.request("GET", "/v1/whoami", cookie: cookie).status == 403, "no longer a member")
        }
    }

    /// A cookie never authorises a request from another origin, CORS or not; a write must show its origin.
    @Test func crossSiteRequestsGetNothingWithTheCookie() throws {
        try TestService.people({ $0.corsOrigins = ["http://evil.example"] }) { service in
            try service.person("ops@example.com")
            let cookie = try service.session("ops@example.com")
            let team = #"{"teamId":"ABCDE12345","name":"Acme"}"#
            let crossRead = try service.request("GET", "/v1/whoami", cookie: cookie, origin: "http://evil.example")
            #expect(crossRead.status == 403, "\(crossRead.text)")
            #expect(crossRead.headers["Access-Control-Allow-Credentials"] == nil)
            #expect(try service.request("POST", "/v1/teams", cookie: cookie, json: team, origin: "http://evil.example").status == 403)
            #expect(try service.request("POST", "/v1/teams", cookie: cookie, json: team, origin: "null").status == 403)
            #expect(
                try service.request("POST", "/v1/teams", cookie: cookie, json: team, origin: nil).status == 403,
                "a write that does not show its origin")
            for site in ["cross-site", "same-site"] {
                #expect(
                    try service.request("GET", "/v1/whoami", cookie: cookie, origin: nil, headers: [("Sec-Fetch-Site", site)]).status == 403
                )
            }
            #expect(
                try service.request(
                    "POST", "/v1/teams", cookie: cookie, json: team, origin: "http://localhost",
                    headers: [("Sec-Fetch-Site", "cross-site")]
                ).status == 403, "the browser's word decides")
            #expect(
                try service.request(
                    "POST", "/v1/teams", cookie: cookie, json: team, origin: nil,
                    headers: [("Sec-Fetch-Site", "same-origin")]
                ).status == 201)
            // Behind a TLS front end not (yet) trusted the server sees http while the page is https: the browser's
            // Sec-Fetch-Site still lets the console's own writes through.
            #expect(
                try service.request(
                    "DELETE", "/v1/teams/ABCDE12345", cookie: cookie, origin: "https://localhost",
                    headers: [("Sec-Fetch-Site", "same-origin")]
                ).status == 204)
            // A key from an allowed origin keeps working: CORS is for keys.
            let key = try service.request("GET", "/v1/whoami", key: try service.key(), headers: [("Origin", "http://evil.example")])
            #expect(key.status == 200)
            #expect(key.headers["Access-Control-Allow-Origin"] == "http://evil.example")
        }
    }

    /// No session can be fixed in advance: a cookie the server did not issue is ignored, and signing in always
    /// issues a new token.
    @Test func sessionFixationFails() throws {
        try TestService.people { service in
            try service.person("ops@example.com")
            let planted = SecretToken.generate().text
            #expect(try service.request("GET", "/v1/whoami", cookie: planted).status == 401)
            let response = try service.signIn("ops@example.com", headers: [("Cookie", "linkd_session=\(planted)")])
            #expect(response.status == 201)
            let issued = try #require(response.sessionCookie)
            #expect(issued != planted)
            #expect(try service.request("GET", "/v1/whoami", cookie: planted).status == 401)
            #expect(try service.request("GET", "/v1/whoami", cookie: issued).status == 200)
            // Two sign-ins, two tokens.
            #expect(try service.session("ops@example.com") != issued)
        }
    }

    /// The session cookie is found among others, with blanks around it; a value of another shape is no token.
    @Test func sessionTokensAreReadFromTheCookieFields() {
        let token = SecretToken.generate().text, other = SecretToken.generate().text
        func tokens(_ fields: [String]) -> [String] {
            var headers = HTTPHeaders()
            for field in fields { headers.add("Cookie", field) }
            return Authenticator.sessionTokens(Request(method: .GET, path: "/v1/whoami", headers: headers)).map(\.text)
        }
        #expect(tokens(["linkd_session=\(token)"]) == [token])
        #expect(tokens(["theme=dark;linkd_session=\(token) ; lang=en"]) == [token])
        #expect(tokens(["a=b", " linkd_session=\(token)", "linkd_session=\(other)"]) == [token, other])
        #expect(tokens(["xlinkd_session=\(token)", "linkd_session=short", "linkd_session=\(token)x", "linkd_session="]).isEmpty)
        #expect(tokens([]).isEmpty)
    }

    /// A session ends after its idle lifetime without a request, and at its absolute end.
    @Test func sessionsEndWhenIdleOrExpired() throws {
        try TestService.people({ $0.sessions.idle = 3600 }) { service in
            let person = try service.person("ops@example.com")
            let idle = try service.session("ops@example.com")
            let old = try service.session("ops@example.com")
            let fresh = try service.session("ops@example.com")
            try service.application.pool.withConnection { connection in
                try connection.execute(
                    """
                    UPDATE sessions SET last_seen_at = now() - interval '2 hours' WHERE token_hash = \(SecretToken(presented: Substring(idle))!.hash)
                    """)
                try connection.execute(
                    """
                    UPDATE sessions SET expires_at = now() - interval '1 second' WHERE token_hash = \(SecretToken(presented: Substring(old))!.hash)
                    """)
            }
            #expect(try service.request("GET", "/v1/whoami", cookie: idle).status == 401)
            #expect(try service.request("GET", "/v1/whoami", cookie: old).status == 401)
            #expect(try service.request("GET", "/v1/whoami", cookie: fresh).status == 200)
            let live = try service.application.pool.withConnection { try SessionStore.list(of: person, idle: 3600, on: $0) }
            #expect(live.count == 1)
        }
    }

    /// A workspace that requires single sign-on refuses password sign-in for its members.
    @Test func ssoRequiredRefusesPasswords() throws {
        try TestService.people { service in
            try service.person("ops@example.com")
            let acme = try service.workspace("acme")
            try service.application.pool.withConnection { connection in
                try connection.execute(
                    """
                    INSERT INTO workspace_sso (workspace_id, issuer, client_id, client_secret_sealed, client_secret_key_id, required)
                    VALUES (\(acme), 'https://idp.example.com', 'linkd', '\\x00'::bytea, 'k1', true)
                    """)
            }
            let refused = try service.signIn("ops@example.com")
            #expect(refused.status == 403)
            #expect(try refused.json["detail"]?.stringValue?.contains("Sign in with SSO") == true)
            #expect(refused.sessionCookie == nil)
        }
    }
}
