/// Why a link that opens an app has no valid destination: the app gets this explicit error instead of
/// a silent nothing, so it can show a real error state.
public struct DestinationError: Error, Sendable, Hashable {
    /// Stable codes, written as snake_case in JSON.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String
        private init(_ raw: String) { description = raw }
        /// A captured value does not convert to its declared type or breaks a constraint.
        public static let invalidParam = Code("invalid_param")
        /// A required parameter has no value in the URL.
        public static let missingParam = Code("missing_param")
        /// The rule names a destination type this app does not declare (any more).
        public static let unknownDestination = Code("unknown_destination")
        /// A stored link past its expiry or its click limit: it no longer opens what it pointed at.
        public static let linkExpired = Code("link_expired")
    }

    public let code: Code
    /// The parameter concerned, when there is one.
    public let param: String?
    /// A sentence for a person.
    public let detail: String

    public init(code: Code, param: String?, detail: String) {
        self.code = code
        self.param = param
        self.detail = detail
    }
}
