import CLibPQ
import Foundation

/// One connection to PostgreSQL: owns one `PGconn *`.
///
/// `@unchecked Sendable`: a connection moves between threads (the pool lends it to whichever worker
/// asks) but is used by one thread at a time; libpq: "libpq is reentrant and thread-safe [...] One
/// restriction is that no two threads attempt to manipulate the same PGconn object at the same time."
/// `ConnectionPool` and `NotificationListener` are the only owners that share connections, and they
/// never lend one to two borrowers at once.
public final class Connection: @unchecked Sendable {
    let pgconn: OpaquePointer // never public, never returned, never stored elsewhere

    /// The client-side limit on each statement's wait for the server (`Connection+Deadline`); nil: wait as long
    /// as the server takes. A bounded pool sets it on the connections it lends (`ConnectionPool.bounded`).
    var statementTimeout: Duration?
    /// Set when a statement outlived `statementTimeout`: the socket is shut down and the connection unusable.
    var isAbandoned = false

    /// Connects with `PQconnectdbParams` (blocking up to the parameters' `connect_timeout`), or within `timeout`
    /// when one is given (`Connection+Deadline`).
    /// - Throws: `.connectionFailed` (with libpq's message in `serverMessage`) when the server cannot be reached
    ///   or rejects the login; `.timedOut` when `timeout` passed first.
    public init(_ parameters: ConnectionParameters, timeout: Duration? = nil) throws(PostgresError) {
        let raw: OpaquePointer
        if let timeout {
            raw = try Self.connect(parameters, timeout: timeout)
        } else {
            // libpq: "expand_dbname: [...] When expand_dbname is zero, the dbname is treated as a database name"
            // (we already parsed any URI in ConnectionParameters, so a dbname containing '=' stays a name).
            let connected = parameters.withKeywordArrays { PQconnectdbParams($0, $1, 0) }
            // libpq: "Note that these functions will always return a non-null object pointer, unless perhaps
            // there is too little memory even to allocate the PGconn object. The PQstatus function should be
            // called to check the return value for a successful connection before queries are sent".
            guard let connected, PQstatus(connected) == CONNECTION_OK else { throw Self.failure(connected) }
            raw = connected
        }
        // libpq's default notice processor prints NOTICE/WARNING lines to stderr, which would break the
        // one-JSON-object-a-line log format; notices (e.g. "table does not exist, skipping") are dropped.
        PQsetNoticeProcessor(raw, { _, _ in }, nil)
        pgconn = raw
    }

    deinit { PQfinish(pgconn) } // the only free

    /// Whether the connection can take another statement: connected and not inside a failed transaction.
    public var isUsable: Bool {
        guard !isAbandoned, PQstatus(pgconn) == CONNECTION_OK else { return false }
        let transaction = PQtransactionStatus(pgconn)
        return transaction != PQTRANS_INERROR && transaction != PQTRANS_UNKNOWN && transaction != PQTRANS_ACTIVE
    }

    /// The server process ID serving this connection (for `pg_terminate_backend`, `pg_stat_activity`).
    public var backendPID: Int32 { PQbackendPID(pgconn) }

    /// Whether the socket is still connected (`PQstatus` is `CONNECTION_OK`), whatever the transaction state.
    var isConnected: Bool { !isAbandoned && PQstatus(pgconn) == CONNECTION_OK }

    /// Whether a transaction is open (idle in transaction, or failed inside one).
    var isInTransaction: Bool {
        let transaction = PQtransactionStatus(pgconn)
        return transaction == PQTRANS_INTRANS || transaction == PQTRANS_INERROR
    }

    /// Runs one statement with parameters (`PQexecParams`, text format in and out).
    /// - Returns: the rows, fully copied; `rowsAffected` for INSERT/UPDATE/DELETE.
    /// - Throws: `.queryFailed` with the SQLSTATE, `.connectionLost` when the connection broke,
    ///   `.invalidParameters` for more than 65535 parameters or a parameter containing a NUL byte.
    @discardableResult
    public func query(_ query: Query) throws(PostgresError) -> QueryResult {
        let texts = query.binds.map { $0.postgresText }
        guard texts.count <= 65535 else {
            throw PostgresError(.invalidParameters, serverMessage: "more than 65535 parameters")
        }
        // Text-format parameters are C strings: a NUL would silently truncate the value. PostgreSQL text
        // cannot hold NUL anyway (22021), so refuse it on this side rather than send something else.
        if texts.contains(where: { $0?.utf8.contains(0) == true }) {
            throw PostgresError(.invalidParameters, serverMessage: "parameter contains a NUL byte")
        }
        let copies: [UnsafeMutablePointer<CChar>?] = texts.map { $0.flatMap { strdup($0) } }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { $0.map { UnsafePointer($0) } }
        let result = try pointers.withUnsafeBufferPointer { values throws(PostgresError) in
            // libpq: "PQexecParams [...] paramTypes[]: If paramTypes is NULL [...] the server infers a data
            // type for the parameter symbol [...] paramValues[]: A null pointer in this array means the
            // corresponding parameter is null [...] paramLengths[]: ignored for null parameters and text-format
            // parameters [...] paramFormats[]: If the array pointer is null then all parameters are presumed
            // to be text strings. [...] resultFormat: Specify zero to obtain results in text format".
            // PQsendQueryParams takes the same arguments.
            try self.result(
                sending: { PQsendQueryParams(pgconn, query.sql, Int32(texts.count), nil, values.baseAddress, nil, nil, 0) },
                blocking: { PQexecParams(pgconn, query.sql, Int32(texts.count), nil, values.baseAddress, nil, nil, 0) })
        }
        return try consume(result)
    }

    /// Runs one statement and returns the number of rows it affected.
    /// - Throws: as `query(_:)`.
    @discardableResult
    public func execute(_ query: Query) throws(PostgresError) -> Int {
        try self.query(query).rowsAffected
    }

    /// Runs several `;`-separated statements without parameters (`PQexec`): migrations, DDL scripts.
    /// Outside an explicit transaction the statements run as one implicit transaction.
    /// - Throws: `.queryFailed` with the SQLSTATE of the first failing statement, `.connectionLost`.
    public func executeScript(_ sql: String) throws(PostgresError) {
        // libpq: "The command string can include multiple SQL commands (separated by semicolons). Multiple
        // queries sent in a single PQexec call are processed in a single transaction [...] Note however that
        // the returned PGresult structure describes only the result of the last command executed".
        // Processing stops at the first error, whose result is the one returned.
        _ = try consume(result(sending: { PQsendQuery(pgconn, sql) }, blocking: { PQexec(pgconn, sql) }))
    }

    /// `LISTEN "channel"`: notifications on `channel` will arrive on this connection.
    /// - Throws: as `query(_:)`.
    public func listen(_ channel: String) throws(PostgresError) {
        try executeScript("LISTEN " + Query.quoteIdentifier(channel))
    }

    /// `UNLISTEN "channel"`.
    public func unlisten(_ channel: String) throws(PostgresError) {
        try executeScript("UNLISTEN " + Query.quoteIdentifier(channel))
    }

    /// Sends a notification (`SELECT pg_notify($1, $2)`). Inside a transaction it is delivered at commit.
    /// - Throws: as `query(_:)`; the server limits payloads to 8000 bytes.
    public func notify(_ channel: String, payload: String) throws(PostgresError) {
        try query("SELECT pg_notify(\(channel), \(payload))")
    }

    /// Turns a `PGresult` into a `QueryResult` or an error, and clears it.
    func consume(_ result: OpaquePointer?, failure: PostgresError.Code = .queryFailed) throws(PostgresError) -> QueryResult {
        guard let result else { throw lastError(failure) }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_TUPLES_OK, PGRES_COMMAND_OK:
            return QueryResult(copying: result)
        case PGRES_EMPTY_QUERY:
            return QueryResult(rowsAffected: 0)
        case PGRES_COPY_IN, PGRES_COPY_OUT, PGRES_COPY_BOTH:
            abandonCopy()
            throw PostgresError(.invalidParameters, serverMessage: "COPY must go through copyFrom(_:rows:)")
        default:
            throw error(from: result, failure: failure)
        }
    }

    /// The error a failed result describes: SQLSTATE and primary message.
    func error(from result: OpaquePointer, failure: PostgresError.Code) -> PostgresError {
        // libpq: "PQresultErrorField [...] PG_DIAG_SQLSTATE: The SQLSTATE code for the error. [...] NULL is
        // returned if the PGresult is not an error or warning result, or does not include the specified field."
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { SQLState(rawValue: String(cString: $0)) }
        let message =
            PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            ?? String(cString: PQresultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines)
        let code = PQstatus(pgconn) == CONNECTION_BAD ? .connectionLost : failure
        return PostgresError(code, sqlState: state, serverMessage: message)
    }

    /// The error when libpq returned no result at all (out of memory, or the connection broke).
    func lastError(_ failure: PostgresError.Code) -> PostgresError {
        let message = String(cString: PQerrorMessage(pgconn)).trimmingCharacters(in: .whitespacesAndNewlines)
        return PostgresError(PQstatus(pgconn) == CONNECTION_BAD ? .connectionLost : failure, serverMessage: message)
    }

    /// Leaves a COPY state entered by a statement that was not expected to COPY, so the connection stays usable.
    private func abandonCopy() {
        // libpq: "PQputCopyEnd [...] If errormsg is not NULL then errormsg is used as the error message and
        // the COPY is forced to fail." A COPY TO is drained with PQgetCopyData until it returns -1.
        _ = PQputCopyEnd(pgconn, "COPY not supported here")
        var buffer: UnsafeMutablePointer<CChar>?
        while PQgetCopyData(pgconn, &buffer, 0) > 0 {
            PQfreemem(buffer)
        }
        while let pending = PQgetResult(pgconn) { PQclear(pending) }
    }
}
