@testable import LinkService
import Testing

/// `CSVReader`, libcsv's Swift face (docs/LINKS-IMPORT.md): RFC 4180 quoting, line ends, the byte order mark,
/// limits, errors with their record number, and the same records whatever the chunks the bytes arrive in.
@Suite("CSV reader")
struct CSVReaderTests {
    /// `bytes` fed in chunks of `size` bytes, then finished.
    static func records(_ bytes: [UInt8], chunk size: Int, maxColumns: Int = 64, maxFieldBytes: Int = 1024) throws(CSVError) -> [[String]] {
        let reader = CSVReader(maxColumns: maxColumns, maxFieldBytes: maxFieldBytes)
        var records: [[String]] = []
        var offset = 0
        while offset < bytes.count {
            records += try reader.feed(bytes[offset..<min(offset + size, bytes.count)])
            offset += size
        }
        return try records + reader.finish()
    }

    static func error(_ text: String, chunk: Int = 4096, maxColumns: Int = 64, maxFieldBytes: Int = 1024) -> CSVError? {
        do {
            _ = try records(Array(text.utf8), chunk: chunk, maxColumns: maxColumns, maxFieldBytes: maxFieldBytes)
            return nil
        } catch {
            return error
        }
    }

    static let tricky =
        "\u{FEFF}name,text,empty,last\r\n"
        + "plain,\"a, b\",,\"x\"\r\n"
        + "\"she said \"\"hi\"\"\",\"two\r\nlines\",\"\",  spaced  \r\n"
        + "\r\n"
        + "é,\"\",,\n"
        + "end,\"lf\nonly\",,no newline"
    static let trickyRecords = [
        ["name", "text", "empty", "last"],
        ["plain", "a, b", "", "x"],
        ["she said \"hi\"", "two\r\nlines", "", "  spaced  "],
        ["é", "", "", ""],
        ["end", "lf\nonly", "", "no newline"],
    ]

    @Test func quotesLineEndsTheByteOrderMarkAndEmptyFields() throws {
        #expect(try CSVReader.records(Array(Self.tricky.utf8), maxColumns: 4, maxFieldBytes: 64) == Self.trickyRecords)
    }

    @Test(arguments: [1, 2, 3, 7, 64, 4096])
    func theSameRecordsWhateverTheChunks(size: Int) throws {
        #expect(try Self.records(Array(Self.tricky.utf8), chunk: size) == Self.trickyRecords)
    }

    @Test func recordsComeOutAsTheirChunksComplete() throws {
        let reader = CSVReader(maxColumns: 4, maxFieldBytes: 64)
        #expect(try reader.feed(Array("a,b\nc,".utf8)) == [["a", "b"]])
        #expect(reader.recordsRead == 1)
        #expect(try reader.feed(Array("d\r\ne".utf8)) == [["c", "d"]])
        #expect(try reader.finish() == [["e"]])
        #expect(reader.recordsRead == 3)
    }

    @Test func shortInputsAndAByteOrderMarkAlone() throws {
        #expect(try Self.records([], chunk: 1) == [])
        #expect(try Self.records([0xEF, 0xBB, 0xBF], chunk: 1) == [])
        #expect(try Self.records(Array("ab".utf8), chunk: 1) == [["ab"]])
        // A byte order mark only counts at the start: later, U+FEFF is text.
        #expect(try Self.records(Array("a\n\u{FEFF}b".utf8), chunk: 1) == [["a"], ["\u{FEFF}b"]])
    }

    @Test func aMisplacedOrUnclosedQuoteIsAnErrorWithItsRecord() {
        #expect(Self.error("a,b\nc,d\"e\nf,g\n") == CSVError(record: 2, kind: .malformedQuote))
        #expect(Self.error("a,b\n\"c\"d,e\n") == CSVError(record: 2, kind: .malformedQuote))
        // Records are counted, not lines: the quoted line break does not shift the number.
        #expect(Self.error("\"a\nb\",c\nd,\"e\"x\n", chunk: 1) == CSVError(record: 2, kind: .malformedQuote))
        #expect(Self.error("a,b\nc,\"never closed\n") == CSVError(record: 2, kind: .malformedQuote))
    }

    @Test func limitsAreRefusedWithTheirRecord() {
        #expect(Self.error("a,b,c\nd,e,f,g\n", maxColumns: 3) == CSVError(record: 2, kind: .tooManyColumns(limit: 3)))
        #expect(Self.error("a,b,c\n", maxColumns: 3) == nil)
        #expect(Self.error("a,12345\n", maxFieldBytes: 5) == nil)
        #expect(Self.error("a,123456\n", maxFieldBytes: 5) == CSVError(record: 1, kind: .fieldTooLong(column: 2, limit: 5)))
        #expect(Self.error("ok\n\"1234\"\"5\"\n", maxFieldBytes: 5) == CSVError(record: 2, kind: .fieldTooLong(column: 1, limit: 5)))
    }

    @Test func aFieldOverTheLimitIsRefusedBeforeItEnds() throws {
        // libcsv buffers a field whole; the reader looks at that buffer after each part it parses.
        let reader = CSVReader(maxColumns: 4, maxFieldBytes: 1000)
        #expect(throws: CSVError(record: 1, kind: .fieldTooLong(column: 2, limit: 1000))) {
            _ = try reader.feed(Array("a,\"".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 200_000))
        }
        // Failed for good.
        #expect(throws: CSVError.self) { _ = try reader.feed(Array("\"\n".utf8)) }
        #expect(throws: CSVError.self) { _ = try reader.finish() }
    }

    @Test func aFieldThatIsNotUTF8IsRefused() {
        #expect(throws: CSVError(record: 2, kind: .notUTF8(column: 3))) {
            _ = try CSVReader.records(Array("a\nb,c,".utf8) + [0xC3, 0x28] + Array("\n".utf8), maxColumns: 4, maxFieldBytes: 64)
        }
    }
}
