import CLibPQ
import Foundation

/// Waits bounded on the client side: a server that accepts and never answers (a stopped postmaster or backend,
/// a hung disk, a lock pile-up) cannot hold the calling thread past the limit. Server-side settings
/// (`statement_timeout`) cannot help there, since the server is not running to enforce them; and libpq's
/// `PQcancel` itself waits for the postmaster to answer. So on a deadline the connection is given up: its
/// socket is shut down (the backend sees the end of the session, and rolls back, when it runs again) and
/// every later use throws `.connectionLost`; the pool discards it when it comes back (`isUsable`).
extension Connection {
    /// Connects with `PQconnectStartParams` and `PQconnectPoll`, waiting on the socket at most `timeout` in all
    /// (libpq's `connect_timeout` counts in whole seconds, at least 2, and only in the blocking call).
    /// - Throws: `.timedOut` past the deadline, `.connectionFailed` when the server refuses or cannot be reached.
    static func connect(_ parameters: ConnectionParameters, timeout: Duration) throws(PostgresError) -> OpaquePointer {
        let deadline = ContinuousClock.now + timeout
        // libpq: "PQconnectStartParams [...] If PQconnectStart or PQconnectStartParams succeeds, the next stage is
        // to poll libpq so that it can proceed with the connection sequence. [...] If PQconnectPoll(conn) last
        // returned PGRES_POLLING_READING, wait until the socket is ready to read [...] PGRES_POLLING_WRITING,
        // wait until the socket is ready to write [...] Consider a PGRES_POLLING_OK or PGRES_POLLING_FAILED as
        // finished".
        let raw = parameters.withKeywordArrays { PQconnectStartParams($0, $1, 0) }
        guard let raw, PQstatus(raw) != CONNECTION_BAD else { throw failure(raw) }
        var polling = PGRES_POLLING_WRITING
        while true {
            switch polling {
            case PGRES_POLLING_OK:
                return raw
            case PGRES_POLLING_READING, PGRES_POLLING_WRITING:
                let events = polling == PGRES_POLLING_READING ? POLLIN : POLLOUT
                guard wait(PQsocket(raw), for: Int16(events), until: deadline) else {
                    PQfinish(raw)
                    throw PostgresError(.timedOut, serverMessage: "no answer while connecting within \(timeout)")
                }
            default:
                throw failure(raw)
            }
            polling = PQconnectPoll(raw)
        }
    }

    /// The error of a failed connection attempt; frees the `PGconn` ("PQfinish [...] even if the server
    /// connection attempt fails").
    static func failure(_ raw: OpaquePointer?) -> PostgresError {
        let message = raw.map { String(cString: PQerrorMessage($0)) }
        PQfinish(raw)
        return PostgresError(.connectionFailed, serverMessage: message?.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Waits until `descriptor` is ready for `events` (or has failed), at most until `deadline`.
    /// - Returns: false when the deadline passed first.
    static func wait(_ descriptor: Int32, for events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        guard descriptor >= 0 else { return true } // no socket: the next libpq call reports why
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return false }
            let milliseconds = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(min(milliseconds, Int64(Int32.max))))
            if ready > 0 { return true }
            if ready < 0, errno != EINTR { return true }
        }
    }

    /// Sends a statement with `send` (`PQsendQueryParams`, `PQsendQuery`) and collects its result as `PQexec`
    /// would (the first error, else the last result; a COPY result as soon as it comes), waiting at most
    /// `timeout`. Without a timeout it runs `blocking` (`PQexecParams`, `PQexec`) instead.
    /// - Returns: the result to consume, or nil when libpq failed (`lastError` says why).
    /// - Throws: `.timedOut` past the deadline (the connection is then given up), `.connectionLost` when it
    ///   was given up before.
    func result(sending send: () -> Int32, blocking: () -> OpaquePointer?) throws(PostgresError) -> OpaquePointer? {
        guard !isAbandoned else { throw PostgresError(.connectionLost, serverMessage: "the connection was given up after a timeout") }
        guard let timeout = statementTimeout else { return blocking() }
        let deadline = ContinuousClock.now + timeout
        guard send() == 1 else { return nil }
        // libpq: "PQflush [...] Returns 0 if successful (or if the send queue is empty), -1 if it failed for some
        // reason, or 1 if it was unable to send all the data in the send queue yet".
        while true {
            let flushed = PQflush(pgconn)
            if flushed == 0 { break }
            if flushed < 0 { return nil }
            guard Self.wait(socket, for: Int16(POLLOUT), until: deadline) else { throw abandon(after: timeout) }
        }
        var kept: OpaquePointer?
        while true {
            // libpq: "PQisBusy [...] returns 1 if a command is busy, that is, PQgetResult would block waiting for
            // input. [...] PQconsumeInput [...] If there was some kind of trouble [returns 0]".
            while PQisBusy(pgconn) == 1 {
                guard Self.wait(socket, for: Int16(POLLIN), until: deadline) else {
                    PQclear(kept)
                    throw abandon(after: timeout)
                }
                guard PQconsumeInput(pgconn) == 1 else {
                    PQclear(kept)
                    return nil
                }
            }
            guard let next = PQgetResult(pgconn) else { return kept }
            switch PQresultStatus(next) {
            case PGRES_COPY_IN, PGRES_COPY_OUT, PGRES_COPY_BOTH:
                PQclear(kept)
                return next
            default:
                if let kept, PQresultStatus(kept) == PGRES_FATAL_ERROR {
                    PQclear(next)
                } else {
                    PQclear(kept)
                    kept = next
                }
            }
        }
    }

    /// Gives the connection up after a statement outlived `timeout`: shuts its socket down, so nothing more is
    /// read or sent on it, and marks it unusable.
    private func abandon(after timeout: Duration) -> PostgresError {
        isAbandoned = true
        if socket >= 0 { shutdown(socket, Int32(SHUT_RDWR)) }
        return PostgresError(.timedOut, serverMessage: "no answer within \(timeout)")
    }
}
