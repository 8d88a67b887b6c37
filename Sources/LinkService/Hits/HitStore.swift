import Foundation
import Observability
import Postgres

/// The hit writer's database work: one batch per transaction (`COPY` + its summary appended), and the daily
/// maintenance (partitions ahead, retention, visitor salts, the week compaction of top values). Used by the writer
/// thread, and its `fold` by the fold thread (`HitBatcher`).
struct HitStore {
    let pool: ConnectionPool
    let configuration: HitsConfiguration
    let logger: Logger

    /// What went wrong writing a batch, sorted by what the writer should do about it.
    enum Failure: Error {
        /// The database cannot be reached or is shutting down: keep the hits, retry later, spool meanwhile.
        case unavailable(PostgresError)
        /// The data itself was refused (SQLSTATE classes 22, 23, 54, or a value libpq cannot send): retrying the same rows fails again.
        case rejected(PostgresError)
        /// Anything else (e.g. a missing table): treated like `unavailable`, but logged louder.
        case other(any Error)
    }

    static func classify(_ error: any Error) -> Failure {
        guard let error = error as? PostgresError else { return .other(error) }
        // Client-side refusals of the data (a value libpq cannot send) are as final as the server's.
        if error.code == .invalidParameters { return .rejected(error) }
        if let state = error.sqlState, ["22", "23", "54"].contains(state.errorClass) { return .rejected(error) }
        return .unavailable(error)
    }

    /// Writes `hits` (binary COPY, `HitCopyData`) and their rollups in one transaction.
    /// - Parameter pacing: how fast the batch goes (`HitPacing`: the COPY's chunks, and the statements after it).
    /// - Parameter campaigns: the campaigns each workspace's hour keeps in the rollups; what this batch counted is added on success.
    func write(
        _ hits: ArraySlice<Hit>, pacing: HitPacing = .fullSpeed, knownPartitions: inout Set<Int64>,
        campaigns: inout HitCampaignLimit
    ) throws(Failure) {
        let days = Set(hits.lazy.map { HitBatchSummary.floorDiv($0.micros, 86_400_000_000) })
        // The rollup summary is counted chunk by chunk as the COPY encodes them, in the same paced slices.
        var summary = HitBatchSummary(campaigns: campaigns)
        // Paced, the statements after the COPY are apart too: each is a fraction of a millisecond of the
        // database's CPU, and back to back they make one burst.
        do {
            let missing = days.subtracting(knownPartitions)
            if !missing.isEmpty {
                try pool.withConnection { try HitPartitions.ensure(days: missing.sorted(), on: $0) }
                knownPartitions.formUnion(missing)
            }
            try pool.withTransaction { connection in
                // One nextval per block of ids, in order: the batch's ids follow the order its hits are written in.
                let idBlocks = try connection.query(
                    Query(
                        unsafeSQL: "SELECT nextval('hits_id_seq') FROM generate_series(1, $1)", binds: [HitCopyData.blocks(for: hits.count)]
                    )
                ).map { Int64(try $0.decode(0, as: Int.self)) }.sorted()
                let copied = try connection.copyFrom(
                    "COPY hits (\(unescaped: HitCopyData.columns)) FROM STDIN (FORMAT binary)",
                    data: HitCopyData(hits: hits, idBlocks: idBlocks, pacing: pacing, eachChunk: { summary.add($0) })
                )
                guard copied == hits.count else {
                    throw PostgresError(.copyFailed, serverMessage: "COPY reported \(copied) rows for \(hits.count)")
                }
                pacing.pauseBetweenStatements()
                try summary.append(on: connection, pacing: pacing)
            }
        } catch {
            throw Self.classify(error)
        }
        campaigns = summary.campaigns
    }

    /// Moves the pending rollups and top values into the tables reads sum (`HitFold`).
    func fold() throws {
        try pool.withConnection { try HitFold.fold(on: $0) }
    }

    /// Creates partitions from yesterday to `partitionsAhead` days after today, drops expired ones, creates
    /// today's and tomorrow's visitor salts and deletes old ones.
    /// - Returns: the days that now have a partition, and the salts (day → salt) from yesterday on.
    func maintain(now: Date = Date()) throws -> (partitions: Set<Int64>, salts: [Int64: String]) {
        let today = VisitorHasher.day(of: now)
        return try pool.withConnection { connection in
            try HitPartitions.ensure(days: (today - 1)...(today + Int64(configuration.partitionsAhead)), on: connection)
            let dropped = try HitPartitions.dropExpired(today: today, retentionDays: configuration.retentionDays, on: connection)
            if !dropped.isEmpty {
                logger.notice("dropped expired hit partitions", metadata: ["hits.partitions": dropped.joined(separator: ",")])
            }
            for day in [today, today + 1] {
                try connection.execute(
                    """
                    INSERT INTO hit_visitor_salts (day, salt) VALUES (date '1970-01-01' + \(Int(day))::int, \(VisitorHasher.randomSalt()))
                    ON CONFLICT DO NOTHING
                    """)
            }
            // Pending rows first: a week is compacted from the top values' daily rows.
            try HitFold.fold(on: connection)
            try HitTopCompaction.compactFinished(now: now, on: connection)
            try connection.execute("DELETE FROM hit_visitor_salts WHERE day < date '1970-01-01' + \(Int(today - 2))::int")
            var salts: [Int64: String] = [:]
            for row in try connection.query(
                "SELECT day - date '1970-01-01', salt FROM hit_visitor_salts WHERE day >= date '1970-01-01' + \(Int(today - 1))::int")
            {
                let (day, salt) = try row.decode((Int, String).self)
                salts[Int64(day)] = salt
            }
            return (Set(try HitPartitions.existing(on: connection)), salts)
        }
    }
}
