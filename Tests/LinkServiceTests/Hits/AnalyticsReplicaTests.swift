import EmbeddedPostgres
import Foundation
import LinkKit
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// `--analytics-database-url`: analytics reads go to a real streaming replica of the test cluster
/// (`pg_basebackup -R`), and answer what the primary answers once it has replayed the writes.
@Suite("Analytics on a replica", .serialized)
struct AnalyticsReplicaTests {
    @Test(.timeLimit(.minutes(3)))
    func analyticsReadTheReplica() throws {
        let primary = try OutageCluster()
        defer { primary.close() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-replica-\(UUID().uuidString.prefix(8))")
        let replica = EmbeddedCluster(dataDirectory: directory, logger: .quiet, durable: false, standbyOf: primary.cluster.connectionString)
        try replica.start()
        defer {
            replica.stop()
            try? FileManager.default.removeItem(at: directory)
        }
        let replicaParameters = try ConnectionParameters(replica.connectionString)
        #expect(try Connection(replicaParameters).query("SELECT pg_is_in_recovery()").first?.decode(0, as: Bool.self) == true)

        // Two nodes on the primary: one reading analytics from the replica, one from the primary itself.
        let onReplica = try TestService(parameters: primary.parameters) { $0.analyticsDatabase = replicaParameters }
        defer { onReplica.close() }
        let onPrimary = try TestService(parameters: primary.parameters)
        defer { onPrimary.close() }
        let key = try onReplica.key(workspace: "acme", scope: .read)
        let workspace = try onReplica.application.pool.withConnection {
            try $0.query("SELECT id FROM workspaces WHERE name = 'acme'").first!.decode(0, as: UUID.self)
        }
        func record(_ hits: [Hit]) {
            let before = onReplica.application.hits.counters.written
            for hit in hits { onReplica.application.hits.record(hit) }
            #expect(eventually { onReplica.application.hits.counters.written == before + hits.count })
        }
        let now = Date()
        record([
            .sample(
                workspace: workspace, host: "a.example", path: "/1", time: now, visitor: "v1", country: "DE", os: "iOS", device: "mobile"),
            .sample(
                workspace: workspace, host: "a.example", path: "/2", time: now, visitor: "v2", country: "FR", os: "Android",
                device: "mobile"),
            .sample(
                workspace: workspace, host: "a.example", path: "/2", time: now, visitor: "v2", country: "FR", os: "Android",
                device: "mobile"),
        ])
        let endpoints = [
            "/v1/analytics/summary", "/v1/analytics/top?dimension=country", "/v1/analytics/top?dimension=path",
            "/v1/analytics/timeseries?interval=hour&groupBy=os",
        ]
        func answers(_ service: TestService) throws -> [String] {
            try endpoints.map { try Fixture.expect(200, service.request("GET", $0, key: key)).text }
        }
        // The insert position: with asynchronous commit (the test cluster's), a commit may not be written yet.
        func replayed() throws -> Bool {
            let written = try Connection(primary.parameters).query("SELECT pg_current_wal_insert_lsn()::text").first!.decode(
                0, as: String.self)
            return try Connection(replicaParameters).query(
                Query(unsafeSQL: "SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn", binds: [written])
            )
            .first!.decode(0, as: Bool.self)
        }
        #expect(try eventually { try replayed() })
        let fromReplica = try answers(onReplica)
        #expect(fromReplica == (try answers(onPrimary)))
        #expect(fromReplica[0].contains(#""hits":3"#) && fromReplica[0].contains(#""uniqueVisitors":2"#))

        // With replay paused, a new tap is counted on the primary only: the replica node's answers are the replica's.
        try Connection(replicaParameters).execute("SELECT pg_wal_replay_pause()")
        record([
            .sample(
                workspace: workspace, host: "a.example", path: "/3", time: now, visitor: "v3", country: "DE", os: "iOS", device: "mobile")
        ])
        #expect(try answers(onPrimary)[0].contains(#""hits":4"#))
        #expect(try answers(onReplica) == fromReplica)
        try Connection(replicaParameters).execute("SELECT pg_wal_replay_resume()")
        #expect(try eventually { try replayed() })
        #expect(try answers(onReplica) == (try answers(onPrimary)))
    }
}
