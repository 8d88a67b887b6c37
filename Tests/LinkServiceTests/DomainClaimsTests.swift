import Foundation
import LinkKit
@testable import LinkService
import Postgres
import Synchronization
import Testing
import TestSupport

/// Hostnames across workspaces: no workspace's wildcard governs another's names, and operators' suffixes
/// (docs/WORKSPACES.md), through the API over real PostgreSQL.
@Suite("Domain claims across workspaces")
struct DomainClaimsTests {
    static func create(_ service: TestService, _ key: String, _ hostname: String) throws -> TestResponse {
        try service.request("POST", "/v1/domains", key: key, json: #"{"hostname":"\#(hostname)"}"#)
    }

    /// The workspace's hostnames, in creation order.
    static func hostnames(_ service: TestService, _ key: String) throws -> [String] {
        try service.request("GET", "/v1/domains", key: key).json["items"]?.arrayValue?.compactMap { $0["hostname"]?.stringValue } ?? []
    }

    /// A 409 problem that names neither the other workspace nor its hostnames.
    static func expectRefused(_ response: TestResponse, hiding secrets: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == 409, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.headers["Content-Type"] == "application/problem+json", sourceLocation: sourceLocation)
        for secret in secrets {
            #expect(!response.text.contains(secret), "\(response.text) reveals \(secret)", sourceLocation: sourceLocation)
        }
    }

    @Test func aWildcardOverAnotherWorkspacesHostnameIsRefused() throws {
        try TestService.with { service in
            let alpha = try service.key(workspace: "alpha")
            let bravo = try service.key(workspace: "bravo")
            #expect(try Self.create(service, bravo, "links.bravo.example").status == 201)
            #expect(try Self.create(service, bravo, "*.users.corp.example").status == 201)

            Self.expectRefused(try Self.create(service, alpha, "*.bravo.example"), hiding: ["links.bravo.example", "bravo\""])
            // The wildcard's file is served at its root, which would take over bravo's exact name there too.
            #expect(try Self.create(service, bravo, "shop.example").status == 201)
            Self.expectRefused(try Self.create(service, alpha, "*.shop.example"), hiding: ["bravo"])
            // A wildcard over another workspace's wildcard governs its subdomains' root.
            Self.expectRefused(try Self.create(service, alpha, "*.corp.example"), hiding: ["users.corp.example"])
            #expect(try Self.hostnames(service, alpha).isEmpty, "nothing was registered")

            // Names beside or above (without a wildcard) govern nothing of bravo's.
            #expect(try Self.create(service, alpha, "bravo.example").status == 201)
            #expect(try Self.create(service, alpha, "*.notbravo.example").status == 201)
            #expect(try Self.create(service, alpha, "*.other.bravo.example").status == 201)
        }
    }

    @Test func aHostnameUnderAnotherWorkspacesWildcardIsRefused() throws {
        try TestService.with { service in
            let alpha = try service.key(workspace: "alpha")
            let bravo = try service.key(workspace: "bravo")
            #expect(try Self.create(service, alpha, "*.alpha.example").status == 201)

            for hostname in ["links.alpha.example", "alpha.example", "deep.links.alpha.example", "*.links.alpha.example"] {
                Self.expectRefused(try Self.create(service, bravo, hostname), hiding: ["\"alpha\""])
            }
            let refused = try Self.create(service, bravo, "links.alpha.example")
            #expect(try refused.json["detail"]?.stringValue?.contains("governed by a wildcard domain") == true)
            #expect(try Self.hostnames(service, bravo).isEmpty)

            // The wildcard's own workspace may register names under it (they take precedence there).
            #expect(try Self.create(service, alpha, "links.alpha.example").status == 201)
            #expect(try Self.create(service, alpha, "alpha.example").status == 201)
            #expect(try Self.create(service, bravo, "badalpha.example").status == 201)
        }
    }

    @Test func oneHostnameBelongsToOneWorkspace() throws {
        try TestService.with { service in
            #expect(try Self.create(service, try service.key(workspace: "alpha"), "links.example.com").status == 201)
            Self.expectRefused(try Self.create(service, try service.key(workspace: "bravo"), "Links.Example.COM."), hiding: ["alpha"])
            #expect(try Self.create(service, try service.key(workspace: "alpha"), "links.example.com").status == 409)
        }
    }

    /// Two workspaces register conflicting names at the same moment: the registration lock decides one
    /// after the other, so exactly one of each pair is registered.
    @Test func concurrentConflictingRegistrationsLetOneThrough() throws {
        try TestService.with { service in
            let alpha = try service.key(workspace: "alpha")
            let bravo = try service.key(workspace: "bravo")
            for round in 0..<12 {
                let statuses = StatusBox()
                let start = DispatchSemaphore(value: 0)
                let group = DispatchGroup()
                for (key, hostname) in [(alpha, "*.race\(round).example"), (bravo, "links.race\(round).example")] {
                    DispatchQueue.global().async(group: group) {
                        start.wait()
                        statuses.append((try? Self.create(service, key, hostname))?.status ?? -1)
                    }
                }
                start.signal()
                start.signal()
                group.wait()
                #expect(statuses.all.sorted() == [201, 409], "round \(round)")
            }
            let crossings = try service.application.pool.withConnection { connection in
                try connection.query(
                    """
                    SELECT count(*) FROM domains w JOIN domains h ON w.workspace_id <> h.workspace_id
                    WHERE left(w.hostname, 2) = '*.' AND right(h.hostname, length(w.hostname) - 1) = substr(w.hostname, 2)
                    """)[0].decode(0, as: Int.self)
            }
            #expect(crossings == 0)
        }
    }

    /// The race the lock closes, made deterministic: while one registration's transaction is open (checked,
    /// inserted, not committed), a conflicting one waits at the lock, then sees the first and is refused.
    /// Without the lock the second check sees nothing yet and both would commit.
    @Test func aRegistrationWaitsForTheOneBeforeIt() throws {
        try TestService.with { service in
            _ = try service.key(workspace: "alpha")
            _ = try service.key(workspace: "bravo")
            let parameters = try #require(service.database?.parameters)
            let first = try Connection(parameters)
            let second = try Connection(parameters)
            func workspace(_ name: String) throws -> UUID {
                try first.query("SELECT id FROM workspaces WHERE name = \(name)")[0].decode(0, as: UUID.self)
            }
            let (alpha, bravo) = (try workspace("alpha"), try workspace("bravo"))

            try first.executeScript("BEGIN")
            try DomainClaims.lock(on: first)
            try DomainClaims.check("*.race.example", workspace: alpha, on: first)
            try first.execute("INSERT INTO domains (workspace_id, hostname) VALUES (\(alpha), '*.race.example')")

            let outcome = Mutex<String?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread {
                defer { done.signal() }
                do {
                    try second.executeScript("BEGIN")
                    defer { try? second.executeScript("ROLLBACK") }
                    try DomainClaims.lock(on: second)
                    try DomainClaims.check("links.race.example", workspace: bravo, on: second)
                    outcome.withLock { $0 = "allowed" }
                } catch let error as ServiceError {
                    outcome.withLock { $0 = error.problem.status == 409 ? "conflict" : "\(error)" }
                } catch {
                    outcome.withLock { $0 = "\(error)" }
                }
            }.start()
            #expect(done.wait(timeout: .now() + 0.5) == .timedOut, "the second registration waits at the lock")
            #expect(outcome.withLock { $0 } == nil)
            try first.executeScript("COMMIT")
            #expect(done.wait(timeout: .now() + 10) == .success)
            #expect(outcome.withLock { $0 } == "conflict")
        }
    }

    @Test func operatorsRestrictAWorkspaceToSuffixes() throws {
        try TestService.with { service in
            let alpha = try service.key(workspace: "alpha")
            let bravo = try service.key(workspace: "bravo")
            let pool = service.application.pool
            #expect(try Self.create(service, alpha, "legacy.example.net").status == 201)
            let listing = try WorkspaceHostSuffixes.allow("Example.COM", workspace: "alpha", pool: pool)
            #expect(listing.suffixes == ["example.com"])
            #expect(listing.domainsOutside == ["legacy.example.net"])
            #expect(
                try WorkspaceHostSuffixes.allow(".links.example.org", workspace: "alpha", pool: pool).suffixes
                    == ["example.com", "links.example.org"])

            for hostname in ["example.com", "links.example.com", "*.shop.example.com", "a.links.example.org"] {
                #expect(try Self.create(service, alpha, hostname).status == 201, "\(hostname)")
            }
            for hostname in ["badexample.com", "example.org", "*.example.org", "links.example.com.evil.example"] {
                let refused = try Self.create(service, alpha, hostname)
                #expect(refused.status == 422, "\(hostname): \(refused.text)")
                #expect(refused.headers["Content-Type"] == "application/problem+json")
                let error = try #require(try refused.json["errors"]?.arrayValue?.first)
                #expect(error["pointer"]?.stringValue == "/hostname")
                #expect(error["detail"]?.stringValue?.contains("example.com, links.example.org") == true)
            }
            // Another workspace is not restricted.
            #expect(try Self.create(service, bravo, "example.org").status == 201)

            #expect(throws: ServiceError.self) { try WorkspaceHostSuffixes.allow("*.example.com", workspace: "alpha", pool: pool) }
            #expect(throws: ServiceError.self) { try WorkspaceHostSuffixes.allow("example.com", workspace: "nobody", pool: pool) }
            #expect(throws: ServiceError.self) { try WorkspaceHostSuffixes.remove("example.edu", workspace: "alpha", pool: pool) }
            _ = try WorkspaceHostSuffixes.remove("example.com", workspace: "alpha", pool: pool)
            #expect(try Self.create(service, alpha, "more.example.com").status == 422)
            #expect(try WorkspaceHostSuffixes.remove("links.example.org", workspace: "alpha", pool: pool).suffixes.isEmpty)
            #expect(try Self.create(service, alpha, "more.example.com").status == 201, "no suffixes: no restriction")
            #expect(try WorkspaceHostSuffixes.list(pool: pool).map(\.workspace) == ["alpha", "bravo"])
        }
    }
}
