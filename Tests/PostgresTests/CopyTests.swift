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

    /// Binary COPY tuples: a field count, then each field as a length (-1 for NULL) and its bytes.
    static func binaryTuple(id: Int64, host: String?, micros: Int64) -> [UInt8] {
        var bytes = withUnsafeBytes(of: Int16(3).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: Int32(8).bigEndian, Array.init) + withUnsafeBytes(of: id.bigEndian, Array.init)
        bytes +=
            host.map { withUnsafeBytes(of: Int32($0.utf8.count).bigEndian, Array.init) + Array($0.utf8) }
            ?? withUnsafeBytes(of: Int32(-1).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: Int32(8).bigEndian, Array.init) + withUnsafeBytes(of: micros.bigEndian, Array.init)
        return bytes
    }

    static let binaryHeader: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [UInt8](repeating: 0, count: 8)

    @Test func binaryDataInSeveralChunksIsCopied() throws {
        // 2000-01-01 is PostgreSQL's timestamp epoch.
        let tuples = (0..<1_000).map {
            Self.binaryTuple(id: Int64($0), host: $0 % 7 == 0 ? nil : "host \($0) ✓", micros: Int64($0) * 1_000_000)
        }
        let chunks =
            [Self.binaryHeader] + stride(from: 0, to: tuples.count, by: 300).map { tuples[$0..<min($0 + 300, tuples.count)].flatMap { $0 } }
            + [withUnsafeBytes(of: Int16(-1).bigEndian, Array.init)]
        #expect(try connection.copyFrom("COPY hits (id, host, at) FROM STDIN (FORMAT binary)", data: chunks) == 1_000)
        let rows = try connection.query("SELECT id, host, at FROM hits ORDER BY id").map { try $0.decode((Int, String?, Date).self) }
        #expect(rows.count == 1_000)
        #expect(
            rows.allSatisfy { id, host, at in
                host == (id % 7 == 0 ? nil : "host \(id) ✓") && at == Date(timeIntervalSince1970: 946_684_800 + Double(id))
            })
    }

    @Test func malformedBinaryDataIsCopyFailedAndTheConnectionStaysUsable() throws {
        #expect {
            try connection.copyFrom("COPY hits (id, host, at) FROM STDIN (FORMAT binary)", data: [Array(Self.binaryHeader.dropLast(3))])
        } throws: { error in
            let error = error as? PostgresError
            return error?.code == .copyFailed && error?.sqlState?.errorClass == "22"
        }
        #expect(connection.isUsable)
        let tuple = Self.binaryTuple(id: 1, host: "a", micros: 0)
        #expect(
            try connection.copyFrom("COPY hits (id, host, at) FROM STDIN (FORMAT binary)", data: [Self.binaryHeader, tuple, [0xFF, 0xFF]])
                == 1)
    }
}
