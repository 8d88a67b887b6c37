import Foundation
import LinkKit
@testable import LinkService
import Observability
import Postgres
import Synchronization
import TestSupport

/// A migrated database, a pool and a batcher for pipeline tests; everything is closed by `close()`.
final class HitHarness: @unchecked Sendable {
    let database: TestDatabase
    let pool: ConnectionPool
    let batcher: HitBatcher

    init(configuration: HitsConfiguration = HitsConfiguration()) throws {
        database = try TestDatabase.create(template: MigratedTemplate.databaseName())
        pool = ConnectionPool(parameters: database.parameters, maxConnections: 4, logger: .quiet)
        batcher = try HitBatcher(
            pool: pool, configuration: configuration,
            logger: ProcessInfo.processInfo.environment["LINKD_TEST_LOG"] != nil ? Logger(label: "test", level: .debug) : .quiet)
    }

    static func with<T>(configuration: HitsConfiguration = HitsConfiguration(), _ body: (HitHarness) throws -> T) throws -> T {
        let harness = try HitHarness(configuration: configuration)
        defer { harness.close() }
        return try body(harness)
    }

    func close() {
        batcher.shutdown()
        pool.shutdown()
        try? database.drop()
    }

    /// Moves the pending rollups into the cubes now (the writer does every few seconds), for a test reading them.
    func fold() throws {
        try pool.withConnection { try HitFold.fold(on: $0) }
    }

    func count(_ sql: String = "SELECT count(*) FROM hits") throws -> Int {
        try pool.withConnection { try $0.query(Query(unsafeSQL: sql)).first!.decode(0, as: Int?.self) ?? 0 }
    }
}

extension Hit {
    /// A plausible hit for tests.
    static func sample(
        workspace: UUID? = UUID(), host: String = "links.example.com", path: String = "/p/1", outcome: Outcome = .openApp,
        source: Source = .click, platform: DevicePlatform = .ios, isBot: Bool = false, time: Date = Date(),
        app: UUID? = nil, rule: UUID? = nil, destination: String? = nil, referrer: String? = nil, visitor: String? = nil,
        served: Served? = nil, link: UUID? = nil, campaign: Campaign? = nil, country: String? = nil, os: String? = nil,
        browser: String? = nil, device: String? = nil
    ) -> Hit {
        var hit = Hit(
            time: time, workspaceID: workspace, hostname: host, path: path, query: nil, outcome: outcome, appID: app, ruleID: rule,
            destinationType: destination, source: source, platform: platform, isBot: isBot, referrerHost: referrer, visitorHash: visitor,
            served: served, linkID: link, campaign: campaign)
        hit.country = country
        hit.os = os
        hit.browser = browser
        hit.device = device.flatMap(Device.init(rawValue:))
        return hit
    }
}

/// Runs `body(thread)` on `count` threads at once and waits for all.
func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    DispatchQueue.concurrentPerform(iterations: count, execute: body)
}
