import Foundation
import Postgres
import Testing
import TestSupport

@Suite struct DecodingTests {
    let database: TestDatabase
    let connection: Connection

    init() throws {
        database = try TestDatabase.create()
        connection = try Connection(database.parameters)
    }

    private func roundTrip<T: PostgresEncodable & PostgresDecodable>(_ value: T, as sqlType: String) throws -> T {
        let query = Query(unsafeSQL: "SELECT $1::\(sqlType) AS v", binds: [value])
        let result = try connection.query(query)
        #expect(result.count == 1)
        #expect(result.columnNames == ["v"])
        return try result[0].decode("v", as: T.self)
    }

    @Test(arguments: [Int64.min, -1, 0, 1, Int64.max])
    func int8(_ value: Int64) throws {
        #expect(try roundTrip(value, as: "int8") == value)
        #expect(try roundTrip(Int(value), as: "int8") == Int(value))
    }

    @Test func smallerIntegers() throws {
        for value in [Int32.min, -7, 0, Int32.max] { #expect(try roundTrip(value, as: "int4") == value) }
        for value in [Int16.min, -7, 0, Int16.max] { #expect(try roundTrip(value, as: "int2") == value) }
        // Wider column into a narrower Swift type: fine while it fits, decodingFailed when it does not.
        let row = try connection.query("SELECT 42::int8, 3000000000::int8")[0]
        #expect(try row.decode(0, as: Int16.self) == 42)
        #expect(throws: PostgresError.self) { try row.decode(1, as: Int32.self) }
    }

    @Test(arguments: [
        "", "plain", "ünïcødé 🚀 日本語", "quote ' double \" backslash \\ tab\t newline\n", String(repeating: "x", count: 100_000),
    ])
    func text(_ value: String) throws {
        #expect(try roundTrip(value, as: "text") == value)
        #expect(try roundTrip(value, as: "varchar") == value)
    }

    @Test func boolsAndDoubles() throws {
        #expect(try roundTrip(true, as: "bool") == true)
        #expect(try roundTrip(false, as: "bool") == false)
        for value in [0.0, -1.5, 3.141592653589793, 1e308, -2.2250738585072014e-308, .infinity, -.infinity] {
            #expect(try roundTrip(value, as: "float8") == value)
        }
        #expect(try roundTrip(Double.nan, as: "float8").isNaN)
        let row = try connection.query("SELECT 12.5::numeric, 1.25::float4")[0]
        #expect(try row.decode((Double, Double).self) == (12.5, 1.25))
    }

    @Test func canonicalUUIDTextIsFormattedAndParsedWithoutFoundation() throws {
        for _ in 0..<100 {
            let id = UUID()
            #expect(id.canonicalText == id.uuidString.lowercased())
            #expect(UUID.canonical(id.uuidString.lowercased()) == id)
            #expect(UUID.canonical(id.uuidString) == id)
            #expect(UUID.canonical("x" + id.uuidString.lowercased()) == nil)
            #expect(UUID.canonical(("|" + id.uuidString + "|").dropFirst().dropLast()) == id)
        }
        for bad in [
            "", "0e1f2a3b4c5d6e7f8091a2b3c4d5e6f7", "0e1f2a3b-4c5d-6e7f-8091-a2b3c4d5e6f", "0e1f2a3b-4c5d-6e7f-8091-a2b3c4d5e6fg",
            "0e1f2a3b_4c5d-6e7f-8091-a2b3c4d5e6f7", "{0e1f2a3b-4c5d-6e7f-8091-a2b3c4d5e6f7}",
        ] {
            #expect(UUID.canonical(bad) == nil, "\(bad)")
        }
    }

    @Test func uuidAndTimestamps() throws {
        let id = UUID()
        #expect(try roundTrip(id, as: "uuid") == id)
        let date = Date(timeIntervalSince1970: 1_796_000_000.123456)
        let back = try roundTrip(date, as: "timestamptz")
        #expect(Int64((back.timeIntervalSince1970 * 1e6).rounded()) == 1_796_000_000_123_456)
        let old = Date(timeIntervalSince1970: -1_000_000_000.5)
        #expect(try roundTrip(old, as: "timestamptz") == old)
        let row = try connection.query(
            "SELECT '2026-11-29 13:01:02.5+02'::timestamptz, '2026-11-29 13:01:02'::timestamp, '2026-11-29'::date")[0]
        let (tz, plain, day) = try row.decode((Date, Date, Date).self)
        #expect(tz.timeIntervalSince1970 == 1_795_950_062.5)
        #expect(plain.timeIntervalSince1970 == 1_795_957_262)
        #expect(day.timeIntervalSince1970 == 1_795_910_400)
    }

    /// Every value a `timestamptz` can hold decodes, in the proleptic Gregorian calendar, and encodes back to
    /// the same value: BC years, years beyond 9999, the limits, and the infinities.
    @Test(arguments: [
        ("0001-01-01 00:00:00+00 BC", -62_167_219_200.0), ("4714-11-24 00:00:00+00 BC", -210_866_803_200),
        ("0001-01-01 00:00:00+00", -62_135_596_800), ("1582-10-04 23:59:59+00", -12_220_156_801),
        ("1582-10-15 00:00:00+00", -12_219_292_800), ("1500-03-01 00:00:00.5+00", -14_826_671_999.5),
        ("294276-12-31 23:59:59+00", 9_224_318_015_999), ("infinity", .infinity), ("-infinity", -.infinity),
    ])
    func timestampsOutsideTheUsualYears(_ text: String, _ seconds: Double) throws {
        let row = try connection.query(Query(unsafeSQL: "SELECT $1::timestamptz, $1::timestamptz::text", binds: [text]))[0]
        let date = try row.decode(0, as: Date.self)
        #expect(date.timeIntervalSince1970 == seconds, "\(text)")
        #expect(try row.decode(1, as: String.self) == text)
        let back = try connection.query(Query(unsafeSQL: "SELECT $1::timestamptz = $2::timestamptz", binds: [date, text]))[0]
        #expect(try back.decode(0, as: Bool.self), "\(text)")
        // Binary COPY gives the same.
        var copied: [Date?] = []
        _ = try connection.copyOut(Query(unsafeSQL: "COPY (SELECT '\(text)'::timestamptz) TO STDOUT (FORMAT binary)")) {
            copied.append($0.timestamp(0))
        }
        #expect(copied == [date], "\(text)")
    }

    @Test func jsonbAndBytea() throws {
        let json = JSONText(#"{"type": "widgetDetail", "params": {"id": 42, "name": "ü \"q\""}}"#)
        let back = try roundTrip(json, as: "jsonb")
        #expect(back.json == #"{"type": "widgetDetail", "params": {"id": 42, "name": "ü \"q\""}}"#)
        let asString = try connection.query("SELECT '[1, 2]'::jsonb")[0].decode(0, as: String.self)
        #expect(asString == "[1, 2]")
        let bytes: [UInt8] = Array(0...255) + [0, 0, 255]
        #expect(try roundTrip(bytes, as: "bytea") == bytes)
        #expect(try roundTrip(Data(bytes), as: "bytea") == Data(bytes))
        #expect(try roundTrip([UInt8](), as: "bytea") == [])
        #expect {
            _ = try connection.query("SELECT '{not json'::jsonb")
        } throws: { ($0 as? PostgresError)?.sqlState == .invalidTextRepresentation }
    }

    @Test func arrays() throws {
        let strings = ["a", "", "with space", "comma,brace{}", "quote\"back\\slash", "NULL", "ünï"]
        #expect(try roundTrip(strings, as: "text[]") == strings)
        #expect(try roundTrip([String](), as: "text[]") == [])
        let numbers: [Int64] = [Int64.min, -1, 0, 42, Int64.max]
        #expect(try roundTrip(numbers, as: "int8[]") == numbers)
        let row = try connection.query("SELECT ARRAY[1,2,3]::int4[], '{x,NULL}'::text[]")[0]
        #expect(try row.decode(0, as: [Int32].self) == [1, 2, 3])
        #expect(throws: PostgresError.self) { try row.decode(1, as: [String].self) } // NULL element
    }

    @Test func nullsDecodeAsNilAndFailForNonOptionals() throws {
        let nothing: String? = nil
        let row = try connection.query("SELECT \(nothing)::text AS t, NULL::int4 AS i, NULL::uuid AS u, NULL::jsonb AS j")[0]
        #expect(try row.decode("t", as: String?.self) == nil)
        #expect(try row.decode("i", as: Int32?.self) == nil)
        #expect(try row.decode("u", as: UUID?.self) == nil)
        #expect(try row.decode("j", as: JSONText?.self) == nil)
        #expect {
            _ = try row.decode("i", as: Int32.self)
        } throws: { ($0 as? PostgresError)?.code == .decodingFailed }
        let some: Int32? = 5
        #expect(try connection.query("SELECT \(some)::int4")[0].decode(0, as: Int32?.self) == 5)
    }

    @Test func tupleDecodingAndTypeMismatch() throws {
        let id = UUID()
        let row = try connection.query("SELECT \(id)::uuid, \("host")::text, \(Int32(7))::int4, NULL::text")[0]
        let (a, b, c, d) = try row.decode((UUID, String, Int32, String?).self)
        #expect(a == id && b == "host" && c == 7 && d == nil)
        #expect {
            _ = try row.decode(1, as: Int.self)
        } throws: { ($0 as? PostgresError)?.code == .decodingFailed }
        #expect(throws: PostgresError.self) { try row.decode(9, as: Int.self) }
        #expect(throws: PostgresError.self) { try row.decode("nope", as: Int.self) }
    }

    @Test(arguments: ["'; DROP TABLE victims; --", "1 OR 1=1", "$1", "\\x00", "Robert'); DROP TABLE students;--"])
    func injectionAttemptsStayData(_ attempt: String) throws {
        try connection.executeScript("CREATE TABLE IF NOT EXISTS victims (name text)")
        try connection.execute("INSERT INTO victims (name) VALUES (\(attempt))")
        let count = try connection.query("SELECT count(*) FROM victims WHERE name = \(attempt)")[0].decode(0, as: Int.self)
        #expect(count >= 1)
        #expect(try connection.query("SELECT to_regclass('victims') IS NOT NULL")[0].decode(0, as: Bool.self))
    }

    @Test func interpolationNumbersPlaceholders() {
        let query: Query = "SELECT * FROM t WHERE id = \(5) AND host = \("a") AND x = \(Optional<Int>.none)"
        #expect(query.sql == "SELECT * FROM t WHERE id = $1 AND host = $2 AND x = $3")
        #expect(query.binds.count == 3)
        #expect(query.binds[2].postgresText == nil)
    }
}

@Suite struct QueryBuildingTests {
    @Test func identifiersAreQuotedNotBound() {
        let table = "weird \"name\""
        let query: Query = "SELECT * FROM \(identifier: table) WHERE id = \(1)"
        #expect(query.sql == #"SELECT * FROM "weird ""name""" WHERE id = $1"#)
        #expect(query.binds.count == 1)
    }

    @Test func unescapedTextIsSplicedAndBindsKeepTheirOrder() {
        let columns = "id, name"
        let lock = "FOR UPDATE"
        let owner: any PostgresEncodable = "w"
        let query: Query = """
            SELECT \(unescaped: columns) FROM t WHERE a = \(1) AND \(unescaped: "b") = \(bind: owner) \
            AND c = \(Int64?.none) \(unescaped: lock)
            """
        #expect(query.sql == "SELECT id, name FROM t WHERE a = $1 AND b = $2 AND c = $3 FOR UPDATE")
        #expect(query.binds.count == 3)
        #expect(query.binds[1].postgresText == "w")
    }

    @Test func splicedSQLRunsWithItsBinds() throws {
        let database = try TestDatabase.create()
        let connection = try Connection(database.parameters)
        let cast = "::int8"
        let row = try connection.query("SELECT \(Int64(2))\(unescaped: cast) + \(Int64(3))\(unescaped: cast) AS sum, \(String("x")) AS x")
            .first!
        #expect(try row.decode(0, as: Int64.self) == 5)
        #expect(try row.decode(1, as: String.self) == "x")
    }

    @Test func encodesArraysAndBytesAsLiterals() {
        #expect(["a", "b\"c", "d\\e", ""].postgresText == #"{"a","b\"c","d\\e",""}"#)
        #expect([Int64(-1), 2].postgresText == #"{"-1","2"}"#)
        #expect([UInt8]([0, 255, 16]).postgresText == #"\x00ff10"#)
        #expect(JSONText(bytes: Array("{}".utf8)).json == "{}")
        #expect(Double.infinity.postgresText == "Infinity")
        #expect(Date(timeIntervalSince1970: 0.000001).postgresText == "1970-01-01 00:00:00.000001+00")
        #expect(Date(timeIntervalSince1970: -0.5).postgresText == "1969-12-31 23:59:59.500000+00")
    }
}
