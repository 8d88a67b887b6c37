import CLibPQ
import Foundation

extension Connection {
    /// Bulk-loads rows with `COPY ... FROM STDIN` in text format.
    ///
    /// Fields are escaped here (`\` → `\\`, tab → `\t`, newline → `\n`, carriage return → `\r`,
    /// nil → `\N`), so values may contain any of them. Data goes out in ~64 KiB chunks.
    /// - Parameters:
    ///   - copyStatement: e.g. `Query(unsafeSQL: "COPY hits (host, path, at) FROM STDIN")`; no parameters.
    ///   - rows: one array of text-format fields per row (see `PostgresEncodable.postgresText`).
    /// - Returns: the number of rows copied, as reported by the server.
    /// - Throws: `.invalidParameters` when the statement has binds or a field contains NUL, `.copyFailed`
    ///   (with the SQLSTATE, e.g. a unique violation) when the server rejects the data, `.queryFailed` when
    ///   the statement is not a `COPY FROM STDIN`, `.connectionLost`.
    public func copyFrom(_ copyStatement: Query, rows: some Sequence<[String?]>) throws(PostgresError) -> Int {
        try startCopy(copyStatement)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(80 * 1024)
        var failure: String? = nil
        var sendFailed = false
        rowLoop: for row in rows {
            for (index, field) in row.enumerated() {
                if index > 0 { buffer.append(9) }
                guard let field else {
                    buffer.append(UInt8(ascii: "\\"))
                    buffer.append(UInt8(ascii: "N"))
                    continue
                }
                for byte in field.utf8 {
                    switch byte {
                    case UInt8(ascii: "\\"): buffer.append(92); buffer.append(92)
                    case 9: buffer.append(92); buffer.append(UInt8(ascii: "t"))
                    case 10: buffer.append(92); buffer.append(UInt8(ascii: "n"))
                    case 13: buffer.append(92); buffer.append(UInt8(ascii: "r"))
                    case 0: failure = "field contains a NUL byte"; break rowLoop
                    default: buffer.append(byte)
                    }
                }
            }
            buffer.append(10)
            if buffer.count >= 64 * 1024 {
                if !send(buffer) { sendFailed = true; break }
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if failure == nil, !sendFailed, !buffer.isEmpty, !send(buffer) { sendFailed = true }
        return try finishCopy(failure: failure, sendFailed: sendFailed)
    }

    /// Bulk-loads data the caller has already encoded in the statement's format, typically
    /// `COPY ... FROM STDIN (FORMAT binary)` (header, tuples and trailer as the PostgreSQL documentation of
    /// COPY describes them): the server then parses no text at all. Each chunk is sent as it comes, so the
    /// caller can encode the next one while the server reads the previous (~64 KiB chunks suit libpq).
    /// - Parameters:
    ///   - copyStatement: e.g. `Query(unsafeSQL: "COPY hits (id, at) FROM STDIN (FORMAT binary)")`; no parameters.
    ///   - chunks: the COPY data, in order.
    /// - Returns: the number of rows copied, as reported by the server.
    /// - Throws: `.copyFailed` (with the SQLSTATE, e.g. `22P04` bad copy file format, or a unique violation)
    ///   when the server rejects the data, `.invalidParameters` when the statement has binds, `.queryFailed`
    ///   when it is not a `COPY FROM STDIN`, `.connectionLost`.
    public func copyFrom(_ copyStatement: Query, data chunks: some Sequence<[UInt8]>) throws(PostgresError) -> Int {
        try startCopy(copyStatement)
        var sendFailed = false
        for chunk in chunks where !chunk.isEmpty {
            if !send(chunk) { sendFailed = true; break }
        }
        return try finishCopy(failure: nil, sendFailed: sendFailed)
    }

    /// Runs the `COPY ... FROM STDIN` statement and leaves the connection in the COPY IN state.
    private func startCopy(_ copyStatement: Query) throws(PostgresError) {
        guard copyStatement.binds.isEmpty else {
            throw PostgresError(.invalidParameters, serverMessage: "COPY takes no parameters")
        }
        guard let start = PQexec(pgconn, copyStatement.sql) else { throw lastError(.queryFailed) }
        guard PQresultStatus(start) == PGRES_COPY_IN else {
            defer { PQclear(start) }
            if PQresultStatus(start) == PGRES_FATAL_ERROR { throw error(from: start, failure: .queryFailed) }
            // Any other status (rows, COPY TO): let consume() restore the connection and report it.
            _ = try consume(PQexec(pgconn, ""))
            throw PostgresError(.invalidParameters, serverMessage: "statement is not COPY ... FROM STDIN")
        }
        PQclear(start)
    }

    /// Ends the COPY (forcing it to fail with `failure` when given) and returns the server's row count.
    private func finishCopy(failure: String?, sendFailed: Bool) throws(PostgresError) -> Int {
        // libpq: "PQputCopyEnd [...] If errormsg is NULL, the result is success; otherwise [...] the COPY is
        // forced to fail [...] After successfully calling PQputCopyEnd, call PQgetResult to obtain the final
        // result status of the COPY command."
        let ended = PQputCopyEnd(pgconn, failure) == 1
        var final: OpaquePointer? = nil
        while let result = PQgetResult(pgconn) {
            if let final { PQclear(final) }
            final = result
        }
        if let failure {
            if let final { PQclear(final) }
            throw PostgresError(.invalidParameters, serverMessage: failure)
        }
        guard ended, !sendFailed, let final else { throw lastError(.copyFailed) }
        defer { PQclear(final) }
        guard PQresultStatus(final) == PGRES_COMMAND_OK else { throw error(from: final, failure: .copyFailed) }
        return Int(String(cString: PQcmdTuples(final))) ?? 0
    }

    /// Sends one chunk. libpq: "PQputCopyData [...] The result is 1 if the data was queued, zero if it was
    /// not queued because of full buffers (this will only happen in nonblocking mode), or -1 if an error occurred."
    private func send(_ chunk: [UInt8]) -> Bool {
        chunk.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { PQputCopyData(pgconn, $0.baseAddress, Int32($0.count)) == 1 }
        }
    }
}
