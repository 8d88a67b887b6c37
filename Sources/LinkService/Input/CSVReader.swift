import CCSV

/// Reads CSV (RFC 4180) through Debian's libcsv, as rows of strings, from bytes fed in chunks of any size: an
/// upload is parsed as it arrives, and only the rows of one chunk and the field being read are held.
///
/// What it accepts: fields separated by commas; quoted fields holding commas, doubled quotes (`""` reads `"`) and
/// line breaks; records ended by LF, CRLF or CR, the last one with or without a line break; a UTF-8 byte order mark
/// at the very start (dropped). Empty lines are skipped (libcsv reports no record for them). Fields are kept
/// byte for byte: spaces around them are not trimmed (libcsv's default trims them; a social title may start with
/// one). Refused, with the 1-based number of the record (the header is record 1): a quote inside an unquoted
/// field or text after a closing quote (libcsv's `CSV_STRICT`), a quoted field still open at the end
/// (`CSV_STRICT_FINI`), more than `maxColumns` fields in a record, a field longer than `maxFieldBytes`, a field
/// that is not UTF-8. After an error the reader stays failed: every later call throws it again.
///
/// The only file of LinkService that calls libcsv.
final class CSVReader {
    let maxColumns: Int
    let maxFieldBytes: Int
    /// Records read completely so far (ended by a line break or by `finish()`).
    private(set) var recordsRead = 0

    private let parser: UnsafeMutablePointer<csv_parser>
    private var row: [String] = []
    private var rows: [[String]] = []
    private var failure: CSVError?
    /// Bytes seen at the start of the input while deciding whether they are a byte order mark (at most 3).
    private var start: [UInt8]? = []
    private var finished = false

    /// libcsv's parser is fed at most this many bytes at a time, so a field over the limit is refused after
    /// reading at most this much past it (libcsv buffers a field whole before handing it over).
    private static let slice = 64 * 1024
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// - Parameters:
    ///   - maxColumns: the most fields a record may have.
    ///   - maxFieldBytes: the longest field, in bytes once its quotes are removed.
    init(maxColumns: Int, maxFieldBytes: Int) {
        self.maxColumns = maxColumns
        self.maxFieldBytes = maxFieldBytes
        parser = .allocate(capacity: 1)
        // CSV_STRICT and CSV_STRICT_FINI: a stray quote or an unclosed quoted field is an error, not guessed
        // at. CSV_APPEND_NULL is not set: fields are read with their lengths, and a NUL byte stays a byte.
        let status = csv_init(parser, UInt8(CSV_STRICT | CSV_STRICT_FINI))
        precondition(status == 0, "csv_init only fails when it cannot allocate")
        csv_set_space_func(parser) { _ in 0 }
    }

    deinit {
        csv_free(parser)
        parser.deallocate()
    }

    /// Parses `bytes` (the next part of the input) and answers the records it completed, in order.
    func feed(_ bytes: some Collection<UInt8>) throws(CSVError) -> [[String]] {
        if let failure { throw failure }
        precondition(!finished, "feed after finish")
        var bytes = Array(bytes)
        if let seen = start {
            // Until three bytes have arrived they may still be a byte order mark.
            let all = seen + bytes
            if all.count < Self.byteOrderMark.count && Self.byteOrderMark.starts(with: all) {
                start = all
                return []
            }
            start = nil
            bytes = all.starts(with: Self.byteOrderMark) ? Array(all.dropFirst(Self.byteOrderMark.count)) : all
        }
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + Self.slice, bytes.count)
            let parsed = bytes[offset..<end].withUnsafeBytes { slice in
                csv_parse(
                    parser, slice.baseAddress, slice.count, Self.fieldEnded, Self.recordEnded,
                    Unmanaged.passUnretained(self).toOpaque())
            }
            if failure == nil && parsed < end - offset {
                failure = Self.libcsvError(csv_error(parser), record: recordsRead + 1)
            }
            if failure == nil && parser.pointee.entry_pos > maxFieldBytes {
                failure = CSVError(record: recordsRead + 1, kind: .fieldTooLong(column: row.count + 1, limit: maxFieldBytes))
            }
            if let failure { throw failure }
            offset = end
        }
        return takeRows()
    }

    /// Ends the input: answers the last record if it had no line break after it.
    func finish() throws(CSVError) -> [[String]] {
        if let failure { throw failure }
        guard !finished else { return [] }
        if let seen = start {
            // One or two bytes that began like a byte order mark: they were text after all.
            start = nil
            rows = try feed(seen)
        }
        finished = true
        let status = csv_fini(parser, Self.fieldEnded, Self.recordEnded, Unmanaged.passUnretained(self).toOpaque())
        if failure == nil && status != 0 {
            failure = Self.libcsvError(csv_error(parser), record: recordsRead + 1)
        }
        if let failure { throw failure }
        return takeRows()
    }

    /// Every record of `bytes`, read as one whole input.
    static func records(_ bytes: some Collection<UInt8>, maxColumns: Int, maxFieldBytes: Int) throws(CSVError) -> [[String]] {
        let reader = CSVReader(maxColumns: maxColumns, maxFieldBytes: maxFieldBytes)
        return try reader.feed(bytes) + reader.finish()
    }

    private func takeRows() -> [[String]] {
        defer { rows = [] }
        return rows
    }

    private static func libcsvError(_ code: Int32, record: Int) -> CSVError {
        CSVError(record: record, kind: code == CSV_EPARSE ? .malformedQuote : .outOfMemory)
    }

    /// libcsv's field callback: `field` holds `length` bytes, quotes removed (nil for an empty field at the start).
    private static let fieldEnded: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Void = {
        field, length, reader in
        Unmanaged<CSVReader>.fromOpaque(reader!).takeUnretainedValue()
            .field(field.map { UnsafeRawBufferPointer(start: $0, count: length) } ?? UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// libcsv's record callback: the line break that ended the record, or -1 at `csv_fini`.
    private static let recordEnded: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void = { _, reader in
        Unmanaged<CSVReader>.fromOpaque(reader!).takeUnretainedValue().recordEnded()
    }

    private func field(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        let record = recordsRead + 1
        guard row.count < maxColumns else {
            failure = CSVError(record: record, kind: .tooManyColumns(limit: maxColumns))
            return
        }
        guard bytes.count <= maxFieldBytes else {
            failure = CSVError(record: record, kind: .fieldTooLong(column: row.count + 1, limit: maxFieldBytes))
            return
        }
        guard let text = String(validating: bytes.bindMemory(to: UInt8.self), as: UTF8.self) else {
            failure = CSVError(record: record, kind: .notUTF8(column: row.count + 1))
            return
        }
        row.append(text)
    }

    private func recordEnded() {
        guard failure == nil else { return }
        recordsRead += 1
        rows.append(row)
        row = []
    }
}

/// Why a CSV input was refused, and in which record (1-based, the header counting as record 1).
struct CSVError: Error, Equatable, CustomStringConvertible {
    enum Kind: Equatable {
        /// A quote inside an unquoted field, text after a closing quote, or a quoted field never closed.
        case malformedQuote
        case tooManyColumns(limit: Int)
        /// `column` is 1-based.
        case fieldTooLong(column: Int, limit: Int)
        case notUTF8(column: Int)
        case outOfMemory
    }

    let record: Int
    let kind: Kind

    var description: String {
        switch kind {
        case .malformedQuote: "row \(record): a misplaced or unclosed quote"
        case .tooManyColumns(let limit): "row \(record): more than \(limit) columns"
        case .fieldTooLong(let column, let limit): "row \(record), column \(column): longer than \(limit) bytes"
        case .notUTF8(let column): "row \(record), column \(column): not UTF-8"
        case .outOfMemory: "row \(record): out of memory"
        }
    }
}
