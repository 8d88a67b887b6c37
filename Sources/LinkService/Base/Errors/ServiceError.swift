import HTTPServer

/// The application's own failures, each with one HTTP meaning (mapped once, in `problem`).
public enum ServiceError: Error, Sendable, ProblemConvertible {
    /// The resource does not exist *for this workspace*: another workspace's objects answer exactly this.
    case notFound(String)
    /// A uniqueness or reference rule forbids the change.
    case conflict(String)
    /// `If-Match` does not name the current version.
    case preconditionFailed
    /// Field-level validation failures, each with a JSON pointer into the request body.
    case validation([Problem.FieldError])
    case badRequest(String)
    case unsupportedMediaType
    case unauthorized(String)
    case forbidden(String)
    /// The resource existed and is gone for good (a claimed or expired click token).
    case gone(String)
    /// Too many attempts (failed sign-ins); retry after `retryAfter` seconds.
    case tooManyRequests(String, retryAfter: Int)

    public var problem: Problem {
        switch self {
        case .notFound(let what): .notFound(detail: "\(what) does not exist.")
        case .conflict(let detail): .conflict(detail: detail)
        case .preconditionFailed:
            Problem.preconditionFailed.with(
                detail: "The resource changed since you read it (If-Match does not match its ETag). Read it again and retry.")
        case .validation(let errors):
            .unprocessable(detail: errors.count == 1 ? errors[0].detail : "The request has \(errors.count) invalid fields.", errors: errors)
        case .badRequest(let detail): .badRequest(detail: detail)
        case .unsupportedMediaType:
            Problem.unsupportedMediaType.with(detail: "Send the body as JSON with 'Content-Type: application/json'.")
        case .unauthorized(let detail): .unauthorized(detail: detail)
        case .forbidden(let detail): .forbidden(detail: detail)
        case .gone(let detail): Problem(type: Problem.Types.base + "gone", title: "Gone", status: 410).with(detail: detail)
        case .tooManyRequests(let detail, let retryAfter): Self.tooManyRequests(detail, retryAfter: retryAfter)
        }
    }

    /// 429 with `Retry-After`.
    private static func tooManyRequests(_ detail: String, retryAfter: Int) -> Problem {
        var problem = Problem(type: Problem.Types.base + "too-many-requests", title: "Too many requests", status: 429).with(detail: detail)
        problem.retryAfter = retryAfter
        return problem
    }
}
