import Foundation
import Postgres
import Testing
import TestSupport

@Suite struct CopyTests {
    let database: TestDatabase
    let connection: Connection

    init() throws {
        database = try TestDatabase.create()
        connection = try Connection(database.parameters)
        try connection.executeScript("CREATE TABLE hits (id int8 PRIMARY KEY, host text, path text, at timestamptz)")
    }

    static let tricky: [String?] = [
        "tab\there", "new\nline", "cr\rreturn", "back\\slash", "\\N", "\\", "", nil, "ünïcødé 🚀", "end\\",
        "mixed\t\\t\n\\n", "NULL", "'quoted'", "\"double\"",
    ]

    @Test func twentyThousandTrickyRowsRoundTripExactly() throws {
        let at = Date(timeIntervalSince1970: 1_796_000_000.25)
        let rows: [[String?]] = (0..<20_000).map { index in
            [String(index), Self.tricky[index % Self.tricky.count], Self.tricky[(index / 3) % Self.tricky.count], at.postgresText]
        }
        let copied = try connection.copyFrom("COPY hits (id, host, path, at) FROM STDIN", rows: rows)
        #expect(copied == 20_000)
        let result = try connection.query("SELECT id, host, path, at FROM hits ORDER BY id")
        #expect(result.count == 20_000)
        var mismatches = 0
        for (index, row) in result.enumerated() {
            let (id, host, path, time) = try row.decode((Int, String?, String?, Date).self)
            if id != index || host != rows[index][1] || path != rows[index][2] || time != at { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test func rejectedDataIsCopyFailedAndTheConnectionStaysUsable() throws {
        try connection.execute("INSERT INTO hits (id) VALUES (1)")
        #expect {
            try connection.copyFrom("COPY hits (id, host) FROM STDIN", rows: [["2", "a"], ["1", "dup"]])
        } throws: { error in
            let error = error as? PostgresError
            return error?.code == .copyFailed && error?.sqlState == .uniqueViolation
        }
        #expect {
            try connection.copyFrom("COPY hits (id, host) FROM STDIN", rows: [["not a number", "a"]])
        } throws: { ($0 as? PostgresError)?.sqlState == .invalidTextRepresentation }
        #expect(connection.isUsable)
        #expect(try connection.query("SELECT count(*) FROM hits")[0].decode(0, as: Int.self) == 1)
    }

    @Test func nonCopyStatementsAndBindsAreRefused() throws {
        #expect {
            try connection.copyFrom("SELECT 1", rows: [[String?]]())
        } throws: { ($0 as? PostgresError)?.code == .invalidParameters }
        #expect {
            try connection.copyFrom("COPY hits (id) FROM STDIN WHERE id = \(1)", rows: [[String?]]())
        } throws: { ($0 as? PostgresError)?.code == .invalidParameters }
        #expect {
            try connection.query("COPY hits (id) FROM STDIN")
        } throws: { ($0 as? PostgresError)?.code == .invalidParameters }
        #expect(connection.isUsable)
        #expect(try connection.copyFrom("COPY hits (id) FROM STDIN", rows: [["7"]]) == 1)
    }
}
