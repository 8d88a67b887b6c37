import Foundation
import HTTPServer
import LinkKit
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// People and sessions over a `TestService`: a person with a password, signing in, calling with the cookie.
extension TestService {
    /// A service whose passwords hash with the cheap test parameters.
    static func people(_ configure: (inout ServiceConfiguration) -> Void = { _ in }, _ body: (TestService) throws -> Void) throws {
        try with(
            configure: { configuration in
                configuration.sessions.passwordHasher = .forTests
                configure(&configuration)
            }, body)
    }

    /// The id of the workspace `name`, created when missing.
    func workspace(_ name: String) throws -> UUID {
        try application.pool.withConnection { try WorkspaceStore.ensure(name, on: $0) }
    }

    /// A person with `password`, member of each workspace with its role.
    @discardableResult
    func person(
        _ email: String, password: String = "correct horse battery", in memberships: [(String, Role)] = [("acme", .owner)],
        hasher: PasswordHasher = .forTests
    ) throws -> UUID {
        let workspaces = try memberships.map { (try workspace($0.0), $0.1) }
        return try application.pool.withConnection { connection in
            let person = try PersonStore.ensure(email: email, on: connection)
            try PersonStore.setPassword(person.id, hash: hasher.hash(password), on: connection)
            for (workspace, role) in workspaces { try MembershipStore.set(person.id, of: workspace, role: role, on: connection) }
            return person.id
        }
    }

    /// `POST /v1/sessions`.
    func signIn(_ email: String, _ password: String = "correct horse battery", headers: [(String, String)] = []) throws -> TestResponse {
        try request("POST", "/v1/sessions", json: #"{"email":"\#(email)","password":"\#(password)"}"#, headers: headers)
    }

    /// Signs in and returns the session cookie's token.
    func session(_ email: String, _ password: String = "correct horse battery") throws -> String {
        let response = try signIn(email, password)
        guard response.status == 201, let token = response.sessionCookie else {
            throw TestFailure("sign-in answered \(response.status): \(response.text)")
        }
        return token
    }

    /// A request with the session cookie, from this server's own pages (`Origin`) unless `origin` says otherwise.
    func request(
        _ method: String, _ path: String, cookie: String, json: String? = nil, origin: String? = "http://localhost",
        headers: [(String, String)] = []
    ) throws -> TestResponse {
        var all = headers + [("Cookie", "theme=dark; linkd_session=\(cookie)")]
        if let origin { all.append(("Origin", origin)) }
        return try request(method, path, json: json, headers: all)
    }
}

extension TestResponse {
    /// The value `Set-Cookie: linkd_session=…` sets; nil when none is set.
    var sessionCookie: String? {
        headers.values("Set-Cookie").lazy.compactMap { value -> String? in
            guard value.hasPrefix("linkd_session=") else { return nil }
            return String(value.dropFirst("linkd_session=".count).prefix { $0 != ";" })
        }.first
    }

    /// The attributes of the session's `Set-Cookie`, lower-cased, without its value.
    var sessionCookieAttributes: Set<String> {
        guard let value = headers.values("Set-Cookie").first(where: { $0.hasPrefix("linkd_session=") }) else { return [] }
        return Set(value.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
    }
}
