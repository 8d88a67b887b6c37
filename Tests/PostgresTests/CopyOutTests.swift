import Foundation
import Postgres
import Testing
import TestSupport

@Suite struct CopyOutTests {
    let database: TestDatabase
    let connection: Connection

    init() throws {
        database = try TestDatabase.create()
        connection = try Connection(database.parameters)
    }

    @Test func binaryRowsStreamWithTheirTypes() throws {
        var rows: [(UUID?, Int32?, Date?, String?, Bool)] = []
        let count = try connection.copyOut(
            """
            COPY (SELECT CASE WHEN i = 2 THEN NULL ELSE ('00000000-0000-4000-8000-00000000000' || i)::uuid END, i,
                         timestamptz '2026-11-29 12:00:00.25+00' + i * interval '1 second', json_build_object('i', i), NULL::text
                  FROM generate_series(1, 3) i ORDER BY i) TO STDOUT (FORMAT binary)
            """
        ) { row in
            rows.append(
                (
                    row.uuid(0), row.int32(1), row.timestamp(2),
                    row[3].map { String(decoding: $0, as: UTF8.self) }, row[4] == nil
                ))
        }
        #expect(count == 3)
        #expect(
            rows.map(\.0) == [
                UUID(uuidString: "00000000-0000-4000-8000-000000000001"), nil,
                UUID(uuidString: "00000000-0000-4000-8000-000000000003"),
            ])
        #expect(rows.map(\.1) == [1, 2, 3])
        #expect(rows.map(\.2) == [1, 2, 3].map { Date(timeIntervalSince1970: 1_795_953_600.25 + Double($0)) })
        #expect(rows.map(\.3) == [#"{"i" : 1}"#, #"{"i" : 2}"#, #"{"i" : 3}"#]) // (json's binary form is its text)
        #expect(rows.map(\.4) == [true, true, true])
    }

    @Test func uuidArraysAreReadElementByElement() throws {
        let (a, b) = ("00000000-0000-4000-8000-00000000000a", "00000000-0000-4000-8000-00000000000b")
        var read: [[UUID]?] = []
        let values = """
            (1, ARRAY['\(a)', '\(b)']::uuid[]), (2, '{}'::uuid[]), (3, NULL::uuid[]), (4, ARRAY['\(a)', NULL]::uuid[]),
            (5, ARRAY[ARRAY['\(a)'::uuid]]), (6, '[0:0]={\(b)}'::uuid[])
            """
        _ = try connection.copyOut(
            Query(unsafeSQL: "COPY (SELECT v FROM (VALUES \(values)) AS t(i, v) ORDER BY i) TO STDOUT (FORMAT binary)")
        ) { row in
            var uuids: [UUID] = []
            read.append(row.forEachUUID(inArray: 0) { uuids.append($0) } ? uuids : nil)
        }
        _ = try connection.copyOut("COPY (SELECT ARRAY['x']::text[]) TO STDOUT (FORMAT binary)") { row in
            read.append(row.forEachUUID(inArray: 0) { _ in Issue.record("a text[] has no UUIDs") } ? [] : nil)
        }
        // A NULL element, two dimensions or another element type: not read (nil); other lower bounds are fine.
        #expect(read == [[UUID(uuidString: a)!, UUID(uuidString: b)!], [], nil, nil, nil, [UUID(uuidString: b)!], nil])
    }

    @Test func aMillionRowsStreamOneAtATime() throws {
        var sum: Int64 = 0
        let count = try connection.copyOut("COPY (SELECT i FROM generate_series(1, 1000000) i) TO STDOUT (FORMAT binary)") { row in
            sum += Int64(row.int32(0) ?? 0)
        }
        #expect(count == 1_000_000)
        #expect(sum == 500_000_500_000)
    }

    @Test func noRowsFailuresAndOtherStatementsLeaveTheConnectionUsable() throws {
        #expect(try connection.copyOut("COPY (SELECT 1 WHERE false) TO STDOUT (FORMAT binary)") { _ in } == 0)
        #expect {
            try connection.copyOut("COPY (SELECT 1) TO STDOUT") { _ in }
        } throws: { ($0 as? PostgresError)?.code == .invalidParameters }
        #expect {
            try connection.copyOut("COPY (SELECT 1 / (i - 3) FROM generate_series(1, 5) i) TO STDOUT (FORMAT binary)") { _ in }
        } throws: { ($0 as? PostgresError)?.sqlState == SQLState(rawValue: "22012") }
        #expect {
            try connection.copyOut("SELECT 1") { _ in }
        } throws: { ($0 as? PostgresError)?.code == .invalidParameters }
        #expect {
            try connection.copyOut("COPY (SELECT \(1)) TO STDOUT (FORMAT binary)") { _ in }
        } throws: { ($0 as? PostgresError)?.code == .invalidParameters }
        #expect(connection.isUsable)
        #expect(try connection.query("SELECT 41 + 1")[0].decode(0, as: Int.self) == 42)
    }
}
