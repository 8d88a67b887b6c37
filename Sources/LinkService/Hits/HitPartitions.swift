import Foundation
import Postgres

/// The daily partitions of `hits`: named `hits_pYYYYMMDD`, each holding one UTC day.
/// Its SQL is the hit writer's partition DDL and catalog reads, its own mechanism, so it stays here.
enum HitPartitions {
    /// The partition name of a UTC day (days since 1970).
    static func name(day: Int64) -> String {
        "hits_p" + TimestampText.date(day: day).replacingOccurrences(of: "-", with: "")
    }

    /// The UTC day a partition name stands for, nil for a name that is not ours.
    static func day(ofPartition name: String) -> Int64? {
        guard name.hasPrefix("hits_p"), name.count == 14, let number = Int(name.dropFirst(6)) else { return nil }
        var components = DateComponents()
        components.year = number / 10_000
        components.month = number / 100 % 100
        components.day = number % 100
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: components) else { return nil }
        return VisitorHasher.day(of: date)
    }

    /// Creates the partitions of `days` that do not exist yet. Safe to run concurrently from several nodes.
    /// - Throws: `PostgresError` other than "already exists".
    static func ensure(days: some Sequence<Int64>, on connection: Connection) throws {
        for day in days {
            // The name and bounds are generated from a number, never from input: safe to interpolate.
            let sql =
                "CREATE TABLE IF NOT EXISTS \(name(day: day)) PARTITION OF hits FOR VALUES FROM ('\(TimestampText.date(day: day)) 00:00:00+00') TO ('\(TimestampText.date(day: day + 1)) 00:00:00+00')"
            do {
                try connection.executeScript(sql)
            } catch {
                // Another node created it between IF NOT EXISTS's check and the insert into the catalog.
                guard error.sqlState == .duplicateTable || error.sqlState == .uniqueViolation else { throw error }
            }
        }
    }

    /// The days that have a partition.
    static func existing(on connection: Connection) throws -> [Int64] {
        try connection.query(
            """
            SELECT c.relname::text FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'hits'::regclass
            """
        ).compactMap { try day(ofPartition: $0.decode(0, as: String.self)) }.sorted()
    }

    /// Drops whole partitions whose day is more than `retentionDays` before `today`.
    /// - Returns: the names of the partitions dropped.
    @discardableResult
    static func dropExpired(today: Int64, retentionDays: Int, on connection: Connection) throws -> [String] {
        var dropped: [String] = []
        for day in try existing(on: connection) where day < today - Int64(retentionDays) {
            try connection.executeScript("DROP TABLE IF EXISTS \(name(day: day))")
            dropped.append(name(day: day))
        }
        return dropped
    }
}
