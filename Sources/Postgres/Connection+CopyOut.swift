import CLibPQ
import Foundation

extension Connection {
    /// Streams the rows of `COPY (SELECT ...) TO STDOUT (FORMAT binary)` to `body`, one call per row, as they
    /// arrive: nothing is buffered beyond the row at hand, so a million-row read holds one row at a time.
    ///
    /// Binary format carries no column types: the caller reads each field as the type its `SELECT` produces
    /// (`CopyRow.uuid`, `.int32`, `.timestamp`, `.forEachUUID(inArray:)`, or the raw bytes by subscript).
    /// - Parameters:
    ///   - copyStatement: e.g. `COPY (SELECT id, definition FROM rules) TO STDOUT (FORMAT binary)`; no parameters.
    ///   - body: called with each row; the row's memory is valid only during the call.
    /// - Returns: the number of rows streamed.
    /// - Throws: `.invalidParameters` when the statement has binds or is not a binary `COPY ... TO STDOUT`,
    ///   `.queryFailed` (with the SQLSTATE) when the server rejects the statement or fails midway, `.decodingFailed`
    ///   for a malformed stream, `.connectionLost`.
    @discardableResult
    public func copyOut(_ copyStatement: Query, _ body: (CopyRow) -> Void) throws(PostgresError) -> Int {
        guard copyStatement.binds.isEmpty else {
            throw PostgresError(.invalidParameters, serverMessage: "COPY takes no parameters")
        }
        guard let start = PQexec(pgconn, copyStatement.sql) else { throw lastError(.queryFailed) }
        guard PQresultStatus(start) == PGRES_COPY_OUT else {
            // Not a COPY TO (or refused): consume() reports the error, or restores a COPY FROM and refuses it.
            _ = try consume(start)
            throw PostgresError(.invalidParameters, serverMessage: "statement is not COPY ... TO STDOUT")
        }
        let binary = PQbinaryTuples(start) == 1
        PQclear(start)

        var rows = 0
        var failure: PostgresError? = binary ? nil : PostgresError(.invalidParameters, serverMessage: "COPY TO must use FORMAT binary")
        var headerRead = false
        var finished = false
        var fields: [UnsafeRawBufferPointer?] = []
        while true {
            // libpq: "PQgetCopyData [...] Data is always returned one data row at a time [...] The result is -1
            // [when] the COPY is done [...] -2 if an error occurred." The buffer is freed with PQfreemem.
            var buffer: UnsafeMutablePointer<CChar>?
            let length = PQgetCopyData(pgconn, &buffer, 0)
            guard length >= 0, let buffer else { break }
            defer { PQfreemem(buffer) }
            guard failure == nil, !finished else { continue } // drain the rest so the connection stays usable
            let bytes = UnsafeRawBufferPointer(start: buffer, count: Int(length))
            var reader = CopyReader(bytes)
            if !headerRead {
                guard reader.skipHeader() else { failure = Self.malformedCopy("bad binary COPY header"); continue }
                headerRead = true
            }
            guard let count = reader.int16() else { failure = Self.malformedCopy("truncated row"); continue }
            if count == -1 { finished = true; continue }
            fields.removeAll(keepingCapacity: true)
            for _ in 0..<max(0, Int(count)) {
                guard let field = reader.field() else { failure = Self.malformedCopy("truncated field"); break }
                fields.append(field)
            }
            guard failure == nil else { continue }
            body(CopyRow(fields: fields))
            rows += 1
        }
        var final: OpaquePointer? = nil
        while let result = PQgetResult(pgconn) {
            if let final { PQclear(final) }
            final = result
        }
        guard let final else { throw lastError(.queryFailed) }
        defer { PQclear(final) }
        guard PQresultStatus(final) == PGRES_COMMAND_OK else { throw error(from: final, failure: .queryFailed) }
        if let failure { throw failure }
        return rows
    }

    private static func malformedCopy(_ what: String) -> PostgresError {
        PostgresError(.decodingFailed, serverMessage: "binary COPY stream: \(what)")
    }
}

/// One row of a binary `COPY ... TO STDOUT`: each field's bytes in PostgreSQL's binary send format, nil for
/// NULL. The bytes are libpq's buffer: valid only inside the `copyOut` callback (copy what must outlive it).
public struct CopyRow {
    private let fields: [UnsafeRawBufferPointer?]

    init(fields: [UnsafeRawBufferPointer?]) { self.fields = fields }

    public var count: Int { fields.count }

    /// The raw bytes of field `index`; nil for NULL or an index past the end.
    public subscript(index: Int) -> UnsafeRawBufferPointer? { index < fields.count ? fields[index] : nil }

    /// A `uuid` field (16 bytes).
    public func uuid(_ index: Int) -> UUID? {
        guard let field = self[index], field.count == 16 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: field) }
        return UUID(uuid: value)
    }

    /// An `int4` field (big-endian).
    public func int32(_ index: Int) -> Int32? {
        guard let field = self[index], field.count == 4 else { return nil }
        return Self.int32(field, at: 0)
    }

    /// Calls `body` with each element of a `uuid[]` field, in order. False (and `body` not called) when the field
    /// is NULL or not a one-dimensional `uuid` array without NULL elements in array_send's format: dimensions,
    /// flags, element type, then per dimension its length and lower bound, then per element its length and bytes.
    public func forEachUUID(inArray index: Int, _ body: (UUID) -> Void) -> Bool {
        guard let field = self[index], field.count >= 12 else { return false }
        let dimensions = Self.int32(field, at: 0)
        guard dimensions == 0 || dimensions == 1, Self.int32(field, at: 8) == Self.uuidType else { return false }
        guard dimensions == 1 else { return field.count == 12 }
        guard field.count >= 20 else { return false }
        let count = Int(Self.int32(field, at: 12))
        guard count >= 0, field.count == 20 + count * 20 else { return false }
        for element in 0..<count where Self.int32(field, at: 20 + element * 20) != 16 { return false }
        for element in 0..<count {
            var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let start = 24 + element * 20
            withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: field[start..<(start + 16)])) }
            body(UUID(uuid: value))
        }
        return true
    }

    /// The `uuid` type's oid, as arrays name their element type.
    private static let uuidType: Int32 = 2950

    private static func int32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int32 {
        Int32(bitPattern: bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) })
    }

    /// A `timestamptz` or `timestamp` field: microseconds since 2000-01-01 00:00 UTC (big-endian int8), the
    /// largest and smallest `int8` standing for `infinity` and `-infinity` (`DT_NOEND`, `DT_NOBEGIN` in
    /// PostgreSQL's `datatype/timestamp.h`), read as in text (`PostgresTimestamp`).
    public func timestamp(_ index: Int) -> Date? {
        guard let field = self[index], field.count == 8 else { return nil }
        let micros = Int64(bitPattern: field.reduce(0) { $0 << 8 | UInt64($1) })
        switch micros {
        case .max: return Date(timeIntervalSince1970: .infinity)
        case .min: return Date(timeIntervalSince1970: -.infinity)
        default: return Date(timeIntervalSince1970: 946_684_800 + Double(micros) / 1_000_000)
        }
    }
}

/// Reads the big-endian pieces of one binary COPY message.
private struct CopyReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// `PGCOPY\n\377\r\n\0`, a 32-bit flags field, then a header extension of the given length.
    mutating func skipHeader() -> Bool {
        let signature: [UInt8] = [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00]
        guard bytes.count >= 19, bytes.prefix(11).elementsEqual(signature) else { return false }
        offset = 15
        guard let extensionLength = int32(), extensionLength >= 0, offset + Int(extensionLength) <= bytes.count else { return false }
        offset += Int(extensionLength)
        return true
    }

    mutating func int16() -> Int16? {
        guard offset + 2 <= bytes.count else { return nil }
        defer { offset += 2 }
        return Int16(bitPattern: UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]))
    }

    mutating func int32() -> Int32? {
        guard offset + 4 <= bytes.count else { return nil }
        defer { offset += 4 }
        return Int32(bitPattern: bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) })
    }

    /// A length-prefixed field: `.some(nil)` for NULL (length -1), nil when the message is truncated.
    mutating func field() -> UnsafeRawBufferPointer?? {
        guard let length = int32() else { return nil }
        if length < 0 { return .some(nil) }
        guard offset + Int(length) <= bytes.count else { return nil }
        defer { offset += Int(length) }
        return .some(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Int(length)]))
    }
}
