import Foundation
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// `rules.app_ids` mirrors `rule_apps` (migrations/0007): the catalog reads apps from it.
@Suite("Rule app ids")
struct RuleAppIDsTests {
    let migrations = try! Migration.load(from: migrationsDirectory)

    /// Each rule's `app_ids`, by rule name (the rule's position), as text.
    static func appIDs(_ connection: Connection) throws -> [[String]] {
        try connection.query("SELECT app_ids::text[] FROM rules ORDER BY position").map { try $0.decode(0, as: [String].self) }
    }

    @Test func theMigrationFillsThemAndEveryChangeToRuleAppsKeepsThemEqual() throws {
        try withTestDatabase { parameters in
            let pool = ConnectionPool(parameters: parameters, maxConnections: 1, logger: .quiet)
            defer { pool.shutdown() }
            let before = migrations.filter { $0.name != "rule_app_ids" }
            #expect(before.count == migrations.count - 1)
            try Migrator(migrations: before, logger: .quiet).migrate(using: pool)
            try pool.withConnection { connection in
                try connection.executeScript(
                    """
                    INSERT INTO workspaces (name) VALUES ('w');
                    INSERT INTO apps (workspace_id, platform, name, package_name)
                        SELECT id, 'android', 'a' || n, 'com.example.a' || n FROM workspaces, generate_series(1, 3) n;
                    INSERT INTO domains (workspace_id, hostname, settings) SELECT id, 'links.example.com', '{}' FROM workspaces;
                    INSERT INTO rules (workspace_id, domain_id, position, definition)
                        SELECT workspace_id, id, p, '{}' FROM domains, generate_series(0, 2) p;
                    -- rule 0: a3, a1 (ordinals out of row order); rule 1: a2; rule 2: none
                    INSERT INTO rule_apps (rule_id, app_id, ordinal)
                        SELECT r.id, a.id, CASE a.name WHEN 'a3' THEN 0 ELSE 1 END FROM rules r, apps a
                        WHERE r.position = 0 AND a.name IN ('a1', 'a3');
                    INSERT INTO rule_apps (rule_id, app_id, ordinal)
                        SELECT r.id, a.id, 0 FROM rules r, apps a WHERE r.position = 1 AND a.name = 'a2';
                    """)
            }
            try Migrator(migrations: migrations, logger: .quiet).migrate(using: pool)
            try pool.withConnection { connection in
                let app = Dictionary(
                    uniqueKeysWithValues: try connection.query("SELECT name, id::text FROM apps").map {
                        (try $0.decode(0, as: String.self), try $0.decode(1, as: String.self))
                    })
                #expect(try Self.appIDs(connection) == [[app["a3"]!, app["a1"]!], [app["a2"]!], []])

                // Reordered, moved to another rule, added, deleted: each statement rewrites the rules it touched.
                try connection.execute(
                    "UPDATE rule_apps SET ordinal = 1 - ordinal WHERE app_id IN (\(app["a1"]!)::uuid, \(app["a3"]!)::uuid)")
                #expect(try Self.appIDs(connection) == [[app["a1"]!, app["a3"]!], [app["a2"]!], []])
                try connection.execute(
                    "UPDATE rule_apps SET rule_id = (SELECT id FROM rules WHERE position = 2) WHERE app_id = \(app["a2"]!)::uuid")
                #expect(try Self.appIDs(connection) == [[app["a1"]!, app["a3"]!], [], [app["a2"]!]])
                try connection.execute(
                    """
                    INSERT INTO rule_apps (rule_id, app_id, ordinal) SELECT id, \(app["a2"]!)::uuid, 5 FROM rules WHERE position IN (0, 1)
                    """)
                #expect(try Self.appIDs(connection) == [[app["a1"]!, app["a3"]!, app["a2"]!], [app["a2"]!], [app["a2"]!]])
                try connection.execute("DELETE FROM rule_apps WHERE app_id = \(app["a1"]!)::uuid")
                #expect(try Self.appIDs(connection) == [[app["a3"]!, app["a2"]!], [app["a2"]!], [app["a2"]!]])
                try connection.execute("TRUNCATE rule_apps")
                #expect(try Self.appIDs(connection) == [[], [], []])
            }
        }
    }
}
