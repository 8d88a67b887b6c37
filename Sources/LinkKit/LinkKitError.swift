/// The one error type of `LinkKit`: a stable code, a sentence a person understands, and where it applies.
///
/// Validators throw it from their initialisers; the JSON parser throws it with the byte offset, line and column of
/// the first malformed character. The REST layer maps it to a validation problem using `pointer`.
public struct LinkKitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of input was rejected. Compare codes, never messages.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let raw: String
        private init(_ raw: String) { self.raw = raw }
        /// The text is not well-formed JSON (RFC 8259).
        public static let malformedJSON = Code("malformedJSON")
        /// The document is JSON but not the expected shape (for example not an object).
        public static let invalidDocument = Code("invalidDocument")
        /// A team ID (app ID prefix) is malformed.
        public static let invalidTeamID = Code("invalidTeamID")
        /// A bundle ID is malformed.
        public static let invalidBundleID = Code("invalidBundleID")
        /// An app ID (`<prefix>.<bundle ID>`) is malformed.
        public static let invalidAppID = Code("invalidAppID")
        /// An Android package name is malformed.
        public static let invalidPackageName = Code("invalidPackageName")
        /// A SHA-256 certificate fingerprint is malformed.
        public static let invalidFingerprint = Code("invalidFingerprint")
        /// A link domain host name is malformed.
        public static let invalidHostname = Code("invalidHostname")
        /// A route template (`/widget/{id}`) is malformed.
        public static let invalidTemplate = Code("invalidTemplate")
        /// A URL could not be split per RFC 3986.
        public static let invalidURL = Code("invalidURL")
        /// An Android `pathAdvancedPattern` that Android's `PatternMatcher` refuses.
        public static let invalidPattern = Code("invalidPattern")
        /// The stable name of the code, e.g. `invalidTeamID`.
        public var description: String { raw }
    }

    /// What kind of input was rejected.
    public let code: Code
    /// A sentence for a person, naming the bad value.
    public let message: String
    /// RFC 6901 pointer to the offending place in a JSON document, when there is one.
    public let pointer: String?
    /// Byte offset of the problem in the input text (JSON parse errors only).
    public let offset: Int?

    /// Creates an error.
    /// - Parameters:
    ///   - code: what kind of input was rejected.
    ///   - message: a sentence for a person.
    ///   - pointer: RFC 6901 pointer to the offending place, if any.
    ///   - offset: byte offset in the input text, if any.
    public init(_ code: Code, _ message: String, pointer: String? = nil, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.pointer = pointer
        self.offset = offset
    }

    /// Returns the same error located at `pointer`.
    /// - Parameter pointer: RFC 6901 pointer of the place the validated value came from.
    public func at(_ pointer: String) -> LinkKitError {
        LinkKitError(code, message, pointer: pointer, offset: offset)
    }

    /// `code: message (at pointer)`: safe to print anywhere.
    public var description: String {
        var text = "\(code): \(message)"
        if let pointer { text += " (at \(pointer.isEmpty ? "document root" : pointer))" }
        return text
    }
}
