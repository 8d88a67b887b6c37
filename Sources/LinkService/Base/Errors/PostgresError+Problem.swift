import HTTPServer
import Postgres

/// Database failures reaching the edge: a constraint the API did not pre-check is a conflict; a database
/// that cannot be reached, is restarting or lost the connection mid-statement is a 503 with `Retry-After`
/// (the client's retry will find it back, or a new connection); anything else is an internal error (the
/// SQL and server message stay in the logs).
extension PostgresError: ProblemConvertible {
    /// The `Retry-After` of a database outage: long enough not to hammer a restarting server, short enough
    /// that a client retrying after a restart of a few seconds is served soon after it ends.
    static let outageRetryAfter = 2

    public var problem: Problem {
        switch sqlState {
        case .uniqueViolation?, .exclusionViolation?:
            return .conflict(detail: "The change conflicts with an existing resource.")
        case .foreignKeyViolation?:
            return .conflict(detail: "The change refers to, or would orphan, another resource.")
        case .serializationFailure?, .deadlockDetected?:
            return .serviceUnavailable(detail: "The change collided with a concurrent one; retry it.", retryAfter: 1)
        default:
            guard isUnavailability else { return .internal }
            return .serviceUnavailable(detail: "The database is unavailable; retry in a moment.", retryAfter: Self.outageRetryAfter)
        }
    }

    /// Whether the database was out of reach rather than refusing the statement: no connection could be
    /// made or lent in time, the connection broke, the server did not answer within a request thread's limit
    /// (or was found stalled before), or it is shutting down, starting or cancelled the statement.
    var isUnavailability: Bool {
        if code == .poolTimeout || code == .connectionFailed || code == .poolClosed || code == .connectionLost { return true }
        if code == .timedOut || code == .stalled || code == .mustNotWait { return true }
        guard let sqlState else { return false }
        return sqlState.isConnectionFailure || sqlState == .queryCanceled
    }
}
