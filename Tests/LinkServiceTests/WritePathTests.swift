import Foundation
import LinkKit
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// A rule change compiles its domain once on the node that writes it: the validated compilation is installed and
/// the node skips its own notification; other nodes rebuild from theirs (docs/DESIGN.md, "What stays in memory, and why").
@Suite("One write path")
struct WritePathTests {
    /// `linkd_catalog_compilations_total` as `/metrics` serves it.
    func compilations(_ service: TestService) throws -> Int {
        let text = try service.request("GET", "/metrics").text
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("linkd_catalog_compilations_total ") })
        return Int(try #require(Double(line.split(separator: " ")[1])))
    }

    /// Waits until the nodes have applied the notifications sent so far, and run the reloads they queued.
    func settle(_ nodes: TestService...) throws {
        for node in nodes { try node.waitForChangeFeed() }
    }

    func aasa(_ service: TestService, host: String) throws -> TestResponse {
        try HTTPTestClient.request(
            port: service.port, method: "GET", path: "/.well-known/apple-app-site-association", headers: [("Host", host)])
    }

    /// Makes `write` on the first of two nodes sharing one database, then checks that the writing node served the
    /// change as it answered (`served`: what the AASA must contain), that each node compiled the domain once, and
    /// that both serve the same file, ETag and Last-Modified.
    func expectCompiledOnce(served text: String, _ write: (TestService, Fixture) throws -> TestResponse) throws {
        try TestService.with { first in
            let fixture = try Fixture(first)
            let second = try TestService(parameters: first.database!.parameters)
            defer { second.close() }
            try settle(first, second)
            let (firstBefore, secondBefore) = (try compilations(first), try compilations(second))
            try Fixture.expect(200, try write(first, fixture))
            // Read your own writes: served by the writing node as it answers.
            let served = try aasa(first, host: fixture.host)
            #expect(served.text.contains(text))
            try settle(first, second)
            let (onFirst, onSecond) = (try compilations(first) - firstBefore, try compilations(second) - secondBefore)
            #expect(onFirst == 1, "the writing node compiles the domain once: the validated compilation is installed")
            // The other node rebuilds from the notification, to the same file, ETag and Last-Modified.
            #expect(onSecond == 1)
            let other = try aasa(second, host: fixture.host)
            #expect(other.body == served.body)
            #expect(other.headers["ETag"] == served.headers["ETag"])
            #expect(other.headers["Last-Modified"] == served.headers["Last-Modified"])
        }
    }

    @Test func aRulesPutCompilesTheDomainOnceOnTheWritingNodeAndTheOtherNodeFollows() throws {
        try expectCompiledOnce(served: "/once/") { node, fixture in
            try node.request(
                "PUT", "/v1/domains/\(fixture.host)/rules", key: fixture.key,
                json: """
                    {"rules":[{"apps":["\(fixture.iosApp)"],"path":"/once/{id}","destination":{"type":"widgetDetail"}}]}
                    """)
        }
    }

    @Test func aDomainSettingsChangeCompilesTheDomainOnceOnTheWritingNode() throws {
        try expectCompiledOnce(served: "\"paths\"") { node, fixture in
            try node.request("PATCH", "/v1/domains/\(fixture.host)", key: fixture.key, json: #"{"legacyPaths": true}"#)
        }
    }

    /// A notification from this node that no write of it expects (here, sent over one of its own pool connections)
    /// is applied: only a write's own, expected notifications are skipped.
    @Test func anUnexpectedNotificationFromThisNodeIsApplied() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            try settle(service)
            try service.application.pool.withTransaction { connection in
                try connection.executeScript("UPDATE rules SET definition = '{\"path\":\"/direct/*\"}'::json WHERE position = 0")
                try connection.notify(CatalogChanges.channel, payload: fixture.host)
            }
            try fixture.waitForCatalog { _ in (try? aasa(service, host: fixture.host).text.contains("/direct/*")) == true }
        }
    }

    @Test func ownNotificationsAreSkippedOnceAndOnlyFromTheirSender() {
        let own = OwnNotifications()
        own.expect(["a.example.com"], from: 42)
        #expect(
            !own.isOwn(PostgresNotification(channel: CatalogChanges.channel, payload: "a.example.com", processID: 43)), "another backend")
        #expect(
            !own.isOwn(PostgresNotification(channel: CatalogChanges.channel, payload: "b.example.com", processID: 42)), "another domain")
        #expect(own.isOwn(PostgresNotification(channel: CatalogChanges.channel, payload: "a.example.com", processID: 42)))
        #expect(!own.isOwn(PostgresNotification(channel: CatalogChanges.channel, payload: "a.example.com", processID: 42)), "once")
        own.expect(["a.example.com"], from: 42)
        own.withdraw(["a.example.com"], from: 42)
        #expect(!own.isOwn(PostgresNotification(channel: CatalogChanges.channel, payload: "a.example.com", processID: 42)), "withdrawn")
        let domain = UUID().canonicalText
        own.expect([domain], on: CatalogChanges.linksChannel, from: 42)
        #expect(!own.isOwn(PostgresNotification(channel: CatalogChanges.channel, payload: domain, processID: 42)), "another channel")
        #expect(own.isOwn(PostgresNotification(channel: CatalogChanges.linksChannel, payload: domain, processID: 42)))
        own.expect(["a.example.com"], from: 42)
        own.forget()
        #expect(own.count == 0)
    }
}
