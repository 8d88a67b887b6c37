import CLibPQ
import Foundation

/// A `NOTIFY` received on a connection that `LISTEN`s.
public struct PostgresNotification: Sendable, Hashable {
    /// The channel name.
    public let channel: String
    /// The payload (empty when none was given).
    public let payload: String
    /// The server process that sent it.
    public let processID: Int32

    public init(channel: String, payload: String, processID: Int32) {
        self.channel = channel
        self.payload = payload
        self.processID = processID
    }
}

extension Connection {
    /// The socket file descriptor, for `poll`; -1 when not connected.
    var socket: Int32 { PQsocket(pgconn) }

    /// Reads whatever the server has sent without blocking.
    /// libpq: "PQconsumeInput normally returns 1 indicating 'no error', but returns 0 if there was some kind
    /// of trouble (in which case PQerrorMessage can be consulted)."
    /// - Returns: false when the connection is broken.
    func consumeInput() -> Bool {
        PQconsumeInput(pgconn) == 1 && PQstatus(pgconn) == CONNECTION_OK
    }

    /// The next notification already read by `consumeInput`, or nil.
    func nextNotification() -> PostgresNotification? {
        // libpq: "PQnotifies [...] returns the next notification from a list of unhandled notification
        // messages received from the server. It returns a null pointer if there are no pending
        // notifications. [...] it is the caller's responsibility to free it with PQfreemem."
        guard let notify = PQnotifies(pgconn) else { return nil }
        defer { PQfreemem(notify) }
        return PostgresNotification(
            channel: String(cString: notify.pointee.relname),
            payload: String(cString: notify.pointee.extra),
            processID: notify.pointee.be_pid
        )
    }

    /// Waits up to `timeout` milliseconds (-1: forever) for the server socket or `wakeDescriptor` to be readable.
    /// - Returns: `(socketReadable, woken)`.
    func waitForInput(timeout: Int32, wakeDescriptor: Int32) -> (socketReadable: Bool, woken: Bool) {
        var fds = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
        if wakeDescriptor >= 0 { fds.append(pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)) }
        let ready = poll(&fds, nfds_t(fds.count), timeout)
        guard ready > 0 else { return (false, false) }
        let socketReadable = fds[0].revents != 0
        let woken = fds.count > 1 && fds[1].revents != 0
        return (socketReadable, woken)
    }

    /// A cheap check before lending an idle connection. An idle connection's socket is normally silent;
    /// if the server is closing it (restart, `pg_terminate_backend`, idle timeout) it is readable with a
    /// FATAL error message and, once the backend has exited, EOF. So: no input, no round trip; input that
    /// is not explained by a notification → one empty-query round trip decides (the backend may not have
    /// closed the socket yet, so EOF alone cannot be relied on). Stray notifications are discarded.
    func checkAlive() -> Bool {
        guard PQstatus(pgconn) == CONNECTION_OK else { return false }
        guard waitForInput(timeout: 0, wakeDescriptor: -1).socketReadable else { return isUsable }
        guard consumeInput() else { return false }
        while nextNotification() != nil {}
        // libpq: "PQexec [...] If a zero-length string is given [...] PGRES_EMPTY_QUERY" — a round trip
        // that fails if the backend is gone.
        guard (try? executeScript("")) != nil else { return false }
        return isUsable
    }
}
