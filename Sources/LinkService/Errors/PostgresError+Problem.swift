import HTTPServer
import Postgres

/// Database failures reaching the edge: a constraint the API did not pre-check is a conflict;
/// anything else is an internal error (the SQL and server message stay in the logs).
extension PostgresError: ProblemConvertible {
    public var problem: Problem {
        switch sqlState {
        case .uniqueViolation?, .exclusionViolation?:
            .conflict(detail: "The change conflicts with an existing resource.")
        case .foreignKeyViolation?:
            .conflict(detail: "The change refers to, or would orphan, another resource.")
        case .serializationFailure?, .deadlockDetected?:
            .serviceUnavailable(detail: "The change collided with a concurrent one; retry it.")
        default:
            code == .poolTimeout || code == .connectionFailed || code == .poolClosed
                ? .serviceUnavailable(detail: "The database is unavailable.")
                : .internal
        }
    }
}
