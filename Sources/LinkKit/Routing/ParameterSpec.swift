/// One declared parameter of a destination type: `id: {type: "int", min: 1}`.
public struct ParameterSpec: Sendable, Hashable {
    /// The declared type with its constraints.
    public enum Kind: Sendable, Hashable {
        case string(minLength: Int?, maxLength: Int?)
        case int(min: Int64?, max: Int64?)
        case uuid
        case bool
        /// One of a fixed list of strings.
        case enumeration([String])

        /// The name used in the API (`string`, `int`, `uuid`, `bool`, `enum`).
        public var name: String {
            switch self {
            case .string: "string"
            case .int: "int"
            case .uuid: "uuid"
            case .bool: "bool"
            case .enumeration: "enum"
            }
        }
    }

    public let name: String
    public let kind: Kind
    /// A link may leave an optional parameter out; a required one missing is an `invalid_param` error.
    public let optional: Bool

    public init(name: String, kind: Kind, optional: Bool = false) {
        self.name = name
        self.kind = kind
        self.optional = optional
    }

    /// Converts a captured (already percent-decoded) string to the declared type.
    /// - Returns: the typed value, or a sentence saying why the text is not acceptable.
    public func convert(_ text: String) -> Result<TypedValue, DestinationError> {
        switch kind {
        case .string(let minLength, let maxLength):
            let length = TextLimit.length(of: text) // code points, as the API's and the database's limits count
            if let minLength, length < minLength { return .failure(invalid("is shorter than \(minLength) characters")) }
            if let maxLength, length > maxLength { return .failure(invalid("is longer than \(maxLength) characters")) }
            return .success(.string(text))
        case .int(let min, let max):
            guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }),
                let value = Int64(text)
            else { return .failure(invalid("'\(Self.excerpt(text))' is not an integer")) }
            if let min, value < min { return .failure(invalid("\(value) is less than the minimum \(min)")) }
            if let max, value > max { return .failure(invalid("\(value) is greater than the maximum \(max)")) }
            return .success(.int(value))
        case .uuid:
            guard let canonical = Self.canonicalUUID(text) else {
                return .failure(invalid("'\(Self.excerpt(text))' is not a UUID"))
            }
            return .success(.uuid(canonical))
        case .bool:
            switch text.lowercased() {
            case "true", "1", "yes": return .success(.bool(true))
            case "false", "0", "no": return .success(.bool(false))
            default: return .failure(invalid("'\(Self.excerpt(text))' is not a boolean (true/false, 1/0, yes/no)"))
            }
        case .enumeration(let values):
            guard values.contains(text) else {
                return .failure(invalid("'\(Self.excerpt(text))' is not one of \(values.joined(separator: ", "))"))
            }
            return .success(.string(text))
        }
    }

    private func invalid(_ reason: String) -> DestinationError {
        DestinationError(code: .invalidParam, param: name, detail: "The parameter '\(name)' is invalid: \(reason).")
    }

    /// At most 64 characters of untrusted text, for messages.
    static func excerpt(_ text: String) -> String {
        text.unicodeScalars.count <= 64 ? text : String(String.UnicodeScalarView(text.unicodeScalars.prefix(61))) + "..."
    }

    static func canonicalUUID(_ text: String) -> String? {
        let hex = Array(text.utf8)
        guard hex.count == 36 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (index, byte) in hex.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return nil }
                out.append(byte)
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): out.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): out.append(byte + 32)
            default: return nil
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
