import ByteText

/// An RFC 9457 problem detail: the body of every error response.
public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
    /// One offending field of a validation problem.
    public struct FieldError: Sendable, Equatable {
        /// JSON pointer (RFC 6901) to the field, e.g. `/rules/3/path`.
        public var pointer: String
        /// What is wrong with it.
        public var detail: String

        /// Creates a field error.
        public init(pointer: String, detail: String) {
            self.pointer = pointer
            self.detail = detail
        }
    }

    /// URI naming the problem kind; constants in `Problem+Types.swift`.
    public var type: String
    /// Short human summary of the kind; stable per `type`.
    public var title: String
    /// HTTP status code.
    public var status: Int
    /// Explanation specific to this occurrence; curated, never an error's `description`.
    public var detail: String?
    /// Validation errors; omitted from JSON when empty.
    public var errors: [FieldError]
    /// Extra string members, e.g. `requestId`. Names that collide with the standard members are ignored.
    public var extensions: [String: String]
    /// Seconds after which a retry may succeed, sent as the `Retry-After` header (RFC 9110 §10.2.3), not in
    /// the body; nil sends none.
    public var retryAfter: Int?

    /// Creates a problem.
    public init(type: String, title: String, status: Int, detail: String? = nil, errors: [FieldError] = []) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.errors = errors
        self.extensions = [:]
        self.retryAfter = nil
    }

    /// Status, title and detail: safe to log.
    public var description: String {
        "Problem(\(status) \(title)\(detail.map { ": \($0)" } ?? ""))"
    }

    /// The problem as JSON: `type`, `title`, `status`, `detail`?, `errors`?, then extensions sorted by name.
    public var jsonBytes: [UInt8] {
        var out = "{\"type\":"
        JSONString.append(type, to: &out)
        out += ",\"title\":"
        JSONString.append(title, to: &out)
        out += ",\"status\":\(status)"
        if let detail {
            out += ",\"detail\":"
            JSONString.append(detail, to: &out)
        }
        if !errors.isEmpty {
            out += ",\"errors\":["
            for (index, error) in errors.enumerated() {
                if index > 0 { out += "," }
                out += "{\"pointer\":"
                JSONString.append(error.pointer, to: &out)
                out += ",\"detail\":"
                JSONString.append(error.detail, to: &out)
                out += "}"
            }
            out += "]"
        }
        for name in extensions.keys.sorted() where !Self.reservedMembers.contains(name) {
            out += ","
            JSONString.append(name, to: &out)
            out += ":"
            JSONString.append(extensions[name]!, to: &out)
        }
        out += "}"
        return Array(out.utf8)
    }

    private static let reservedMembers: Set<String> = ["type", "title", "status", "detail", "errors", "instance"]
}

/// An error that knows which problem it is at the HTTP edge. The `Router` maps these; anything else is a 500.
public protocol ProblemConvertible: Error {
    /// The problem to answer with.
    var problem: Problem { get }
}

extension Problem: ProblemConvertible {
    /// A problem is its own problem.
    public var problem: Problem { self }
}
