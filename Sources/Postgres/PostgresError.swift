/// The one error type of the `Postgres` module.
///
/// `description` is safe to print anywhere: it names the code and the SQLSTATE, never the SQL text,
/// never parameters and never the server's message (which can quote values from a row).
/// `serverMessage` is for logs only: do not put it in an HTTP response.
public struct PostgresError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, as far as the client can tell.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case connectionFailed, queryFailed, poolClosed, poolTimeout, decodingFailed
            case invalidParameters, copyFailed, connectionLost, timedOut, stalled, mustNotWait
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// Connecting (or reconnecting) to the server failed.
        public static let connectionFailed = Code(.connectionFailed)
        /// The server rejected a statement; `sqlState` says why.
        public static let queryFailed = Code(.queryFailed)
        /// The pool was shut down.
        public static let poolClosed = Code(.poolClosed)
        /// No connection became free within the pool's acquire timeout.
        public static let poolTimeout = Code(.poolTimeout)
        /// A column value could not be decoded as the requested Swift type (or was NULL for a non-optional).
        public static let decodingFailed = Code(.decodingFailed)
        /// Connection parameters or query parameters were malformed.
        public static let invalidParameters = Code(.invalidParameters)
        /// A `COPY ... FROM STDIN` failed on the client side or was rejected.
        public static let copyFailed = Code(.copyFailed)
        /// The connection to the server broke (server restart, terminated backend, network).
        public static let connectionLost = Code(.connectionLost)

        /// The server did not answer within the client's limit (a statement, a connection attempt): the connection
        /// was given up (`Connection+Deadline`).
        public static let timedOut = Code(.timedOut)
        /// Refused without waiting by a bounded pool: the database was found not answering and has not answered
        /// since (`ConnectionPool.bounded`).
        public static let stalled = Code(.stalled)
        /// Refused before any wait by a bounded pool on a thread that must not wait on the database
        /// (`BoundedWaits.mayWait`): the caller runs the work again on a thread that may.
        public static let mustNotWait = Code(.mustNotWait)

        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The server's SQLSTATE; nil for client-side failures.
    public let sqlState: SQLState?
    /// The server's (or libpq's) message. For logs only, never for clients: it may quote data.
    public let serverMessage: String?

    /// Creates an error.
    public init(_ code: Code, sqlState: SQLState? = nil, serverMessage: String? = nil) {
        self.code = code
        self.sqlState = sqlState
        self.serverMessage = serverMessage
    }

    /// `PostgresError(queryFailed, sqlstate: 23505)`: no SQL, no parameters, no server message.
    public var description: String {
        "PostgresError(\(code), sqlstate: \(sqlState?.rawValue ?? "-"))"
    }

    /// Includes the server message: for logs and debugging, not for clients.
    public var debugDescription: String {
        "PostgresError(\(code), sqlstate: \(sqlState?.rawValue ?? "-"), message: \(serverMessage ?? "-"))"
    }
}
