/// The problem kinds of the HTTP layer. `type` URIs are stable: clients may match on them.
extension Problem {
    /// `type` URIs, one per kind.
    public enum Types {
        /// Prefix shared by every linkd problem type.
        public static let base = "https://linkd.dev/problems/"
        /// `bad-request`
        public static let badRequest = base + "bad-request"
        /// `unauthorized`
        public static let unauthorized = base + "unauthorized"
        /// `forbidden`
        public static let forbidden = base + "forbidden"
        /// `not-found`
        public static let notFound = base + "not-found"
        /// `method-not-allowed`
        public static let methodNotAllowed = base + "method-not-allowed"
        /// `conflict`
        public static let conflict = base + "conflict"
        /// `precondition-failed`
        public static let preconditionFailed = base + "precondition-failed"
        /// `payload-too-large`
        public static let payloadTooLarge = base + "payload-too-large"
        /// `uri-too-long`
        public static let uriTooLong = base + "uri-too-long"
        /// `unsupported-media-type`
        public static let unsupportedMediaType = base + "unsupported-media-type"
        /// `validation-failed`
        public static let unprocessable = base + "validation-failed"
        /// `headers-too-large`
        public static let headersTooLarge = base + "headers-too-large"
        /// `internal`
        public static let `internal` = base + "internal"
        /// `service-unavailable`
        public static let serviceUnavailable = base + "service-unavailable"
        /// `http-version-not-supported`
        public static let httpVersionNotSupported = base + "http-version-not-supported"
    }

    /// 400: the request is malformed.
    public static let badRequest = Problem(type: Types.badRequest, title: "Bad request", status: 400)
    /// 400 with a curated explanation.
    public static func badRequest(detail: String?) -> Problem { badRequest.with(detail: detail) }

    /// 401: missing or invalid credentials.
    public static let unauthorized = Problem(type: Types.unauthorized, title: "Unauthorized", status: 401)
    /// 401 with a curated explanation.
    public static func unauthorized(detail: String?) -> Problem { unauthorized.with(detail: detail) }

    /// 403: the credentials do not allow this.
    public static let forbidden = Problem(type: Types.forbidden, title: "Forbidden", status: 403)
    /// 403 with a curated explanation.
    public static func forbidden(detail: String?) -> Problem { forbidden.with(detail: detail) }

    /// 404: no such resource.
    public static let notFound = Problem(type: Types.notFound, title: "Not found", status: 404)
    /// 404 with a curated explanation.
    public static func notFound(detail: String?) -> Problem { notFound.with(detail: detail) }

    /// 405: the path exists but not with this method (the `Router` adds `Allow`).
    public static let methodNotAllowed = Problem(type: Types.methodNotAllowed, title: "Method not allowed", status: 405)

    /// 409: conflicts with the current state (e.g. a duplicate).
    public static let conflict = Problem(type: Types.conflict, title: "Conflict", status: 409)
    /// 409 with a curated explanation.
    public static func conflict(detail: String?) -> Problem { conflict.with(detail: detail) }

    /// 412: an `If-Match` precondition failed.
    public static let preconditionFailed = Problem(type: Types.preconditionFailed, title: "Precondition failed", status: 412)

    /// 413: the body exceeds the server's limit.
    public static let payloadTooLarge = Problem(type: Types.payloadTooLarge, title: "Payload too large", status: 413)

    /// 414: the request target exceeds the server's limit.
    public static let uriTooLong = Problem(type: Types.uriTooLong, title: "URI too long", status: 414)

    /// 415: the body's media type is not accepted.
    public static let unsupportedMediaType = Problem(type: Types.unsupportedMediaType, title: "Unsupported media type", status: 415)

    /// 422: the body is well-formed but invalid; `errors` point at the offending fields.
    public static let unprocessable = Problem(type: Types.unprocessable, title: "Validation failed", status: 422)
    /// 422 with an explanation and the offending fields.
    public static func unprocessable(detail: String?, errors: [FieldError] = []) -> Problem {
        var problem = unprocessable.with(detail: detail)
        problem.errors = errors
        return problem
    }

    /// 431: the header section exceeds the server's limit.
    public static let headersTooLarge = Problem(type: Types.headersTooLarge, title: "Request header fields too large", status: 431)

    /// 500: something failed inside; never carries the cause.
    public static let `internal` = Problem(type: Types.internal, title: "Internal server error", status: 500)

    /// 503: temporarily unable (database down, shutting down).
    public static let serviceUnavailable = Problem(type: Types.serviceUnavailable, title: "Service unavailable", status: 503)
    /// 503 with a curated explanation and, when given, the seconds to wait before retrying (`Retry-After`).
    public static func serviceUnavailable(detail: String?, retryAfter: Int? = nil) -> Problem {
        var problem = serviceUnavailable.with(detail: detail)
        problem.retryAfter = retryAfter
        return problem
    }

    /// 505: the request's HTTP major version is not 1 (answered by libmicrohttpd's parser, as problem+json).
    public static let httpVersionNotSupported = Problem(
        type: Types.httpVersionNotSupported, title: "HTTP version not supported",
        status: 505, detail: "Only HTTP/1.0 and HTTP/1.1 are served.")

    /// A copy with `detail` replaced.
    public func with(detail: String?) -> Problem {
        var copy = self
        copy.detail = detail
        return copy
    }
}
