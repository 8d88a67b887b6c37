import ByteText
import Foundation

/// A Swift type that can be built from a column value in PostgreSQL's text format.
public protocol PostgresDecodable: Sendable {
    /// Decodes a non-NULL value.
    /// - Parameters:
    ///   - postgresText: the value as the server sent it in text format.
    ///   - type: the column's type; conformances refuse types they do not understand.
    /// - Throws: `.decodingFailed` when the type does not fit or the text does not parse.
    init(postgresText: String, type: PostgresType) throws(PostgresError)

    /// The value for SQL NULL. The default throws `.decodingFailed`; `Optional` returns nil.
    static func postgresNull(type: PostgresType) throws(PostgresError) -> Self
}

extension PostgresDecodable {
    public static func postgresNull(type: PostgresType) throws(PostgresError) -> Self {
        throw PostgresError(.decodingFailed, serverMessage: "NULL decoded as non-optional \(Self.self)")
    }
}

@usableFromInline
func mismatch<T>(_ type: PostgresType, _: T.Type) -> PostgresError {
    PostgresError(.decodingFailed, serverMessage: "cannot decode \(type) as \(T.self)")
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    public init(postgresText: String, type: PostgresType) throws(PostgresError) {
        self = .some(try Wrapped(postgresText: postgresText, type: type))
    }
    public static func postgresNull(type: PostgresType) throws(PostgresError) -> Self { nil }
}

extension String: PostgresDecodable {
    /// Any column decodes as its text form (text, varchar, name, json, enums, ...) except `bytea`,
    /// whose text form is hex, not the bytes.
    public init(postgresText: String, type: PostgresType) throws(PostgresError) {
        guard type != .bytea else { throw mismatch(type, String.self) }
        self = postgresText
    }
}

/// Integers decode from int2/int4/int8/oid; a value out of the Swift type's range is `.decodingFailed`.
private func decodeInteger<T: FixedWidthInteger>(_ text: String, _ type: PostgresType) throws(PostgresError) -> T {
    guard type.isInteger else { throw mismatch(type, T.self) }
    guard let value = T(text) else {
        throw PostgresError(.decodingFailed, serverMessage: "integer out of range for \(T.self)")
    }
    return value
}

extension Int: PostgresDecodable {
    public init(postgresText: String, type: PostgresType) throws(PostgresError) { self = try decodeInteger(postgresText, type) }
}

extension Int16: PostgresDecodable {
    public init(postgresText: String, type: PostgresType) throws(PostgresError) { self = try decodeInteger(postgresText, type) }
}

extension Int32: PostgresDecodable {
    public init(postgresText: String, type: PostgresType) throws(PostgresError) { self = try decodeInteger(postgresText, type) }
}

extension Int64: PostgresDecodable {
    public init(postgresText: String, type: PostgresType) throws(PostgresError) { self = try decodeInteger(postgresText, type) }
}

extension Bool: PostgresDecodable {
    public init(postgresText: String, type: PostgresType) throws(PostgresError) {
        guard type == .bool else { throw mismatch(type, Bool.self) }
        switch postgresText {
        case "t": self = true
        case "f": self = false
        default: throw mismatch(type, Bool.self)
        }
    }
}

extension Double: PostgresDecodable {
    /// float4, float8, numeric (possibly losing precision) and integers.
    public init(postgresText: String, type: PostgresType) throws(PostgresError) {
        guard type == .float8 || type == .float4 || type == .numeric || type.isInteger else {
            throw mismatch(type, Double.self)
        }
        switch postgresText {
        case "Infinity": self = .infinity
        case "-Infinity": self = -.infinity
        case "NaN": self = .nan
        default:
            guard let value = Double(postgresText) else { throw mismatch(type, Double.self) }
            self = value
        }
    }
}

extension UUID: PostgresDecodable {
    public init(postgresText: String, type: PostgresType) throws(PostgresError) {
        guard type == .uuid, let value = Self.canonical(postgresText) ?? UUID(uuidString: postgresText) else {
            throw mismatch(type, UUID.self)
        }
        self = value
    }

    /// The form `uuid_out` writes, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (hex digits in either case), parsed without
    /// `sscanf` (which `UUID(uuidString:)` uses, and which dominated decoding a large catalog and replaying a
    /// spool). nil for anything else (callers fall back to `UUID(uuidString:)` where other forms may occur).
    public static func canonical(_ text: String) -> UUID? {
        canonical(text[...])
    }

    /// `canonical(_:)` of a part of a string (a field of a line).
    public static func canonical(_ text: Substring) -> UUID? {
        var text = text
        return text.withUTF8 { canonical(bytes: $0) }
    }

    /// `canonical(_:)` of UTF-8 bytes (a decoded query value read in place).
    public static func canonical(bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard bytes.count == 36 else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let ok = withUnsafeMutableBytes(of: &uuid) { out -> Bool in
            var index = 0
            for position in 0..<16 {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard bytes[index] == UInt8(ascii: "-") else { return false }
                    index += 1
                }
                guard let high = Hex.value(bytes[index]), let low = Hex.value(bytes[index + 1]) else { return false }
                out[position] = high << 4 | low
                index += 2
            }
            return true
        }
        return ok ? UUID(uuid: uuid) : nil
    }
}

extension Date: PostgresDecodable {
    /// `timestamptz` (the session runs in UTC), `timestamp` (read as UTC) and `date` (midnight UTC).
    public init(postgresText: String, type: PostgresType) throws(PostgresError) {
        guard type == .timestamptz || type == .timestamp || type == .date else { throw mismatch(type, Date.self) }
        self = try PostgresTimestamp.parse(postgresText)
    }
}

extension Data: PostgresDecodable {
    public init(postgresText: String, type: PostgresType) throws(PostgresError) {
        guard type == .bytea else { throw mismatch(type, Data.self) }
        self = Data(try PostgresBytea.parse(postgresText))
    }
}

extension JSONText: PostgresDecodable {
    public init(postgresText: String, type: PostgresType) throws(PostgresError) {
        guard type == .jsonb || type == .json else { throw mismatch(type, JSONText.self) }
        self.init(postgresText)
    }
}

/// Element types whose Swift arrays decode from a column: `[UInt8]` from `bytea`, `[String]` from
/// `text[]`/`varchar[]`/`name[]`, integer arrays from `int2[]`/`int4[]`/`int8[]`.
public protocol PostgresArrayDecodable: Sendable {
    /// Decodes a whole array of `Self`.
    static func postgresArray(postgresText: String, type: PostgresType) throws(PostgresError) -> [Self]
}

extension Array: PostgresDecodable where Element: PostgresArrayDecodable {
    public init(postgresText: String, type: PostgresType) throws(PostgresError) {
        self = try Element.postgresArray(postgresText: postgresText, type: type)
    }
}

extension UInt8: PostgresArrayDecodable {
    public static func postgresArray(postgresText: String, type: PostgresType) throws(PostgresError) -> [UInt8] {
        guard type == .bytea else { throw mismatch(type, [UInt8].self) }
        return try PostgresBytea.parse(postgresText)
    }
}

extension String: PostgresArrayDecodable {
    /// A NULL element is `.decodingFailed`; decode `[String?]`-shaped data with `unnest` instead.
    public static func postgresArray(postgresText: String, type: PostgresType) throws(PostgresError) -> [String] {
        guard type.isTextArray else { throw mismatch(type, [String].self) }
        var result: [String] = []
        for element in try PostgresArrayLiteral.parse(postgresText) {
            guard let element else { throw PostgresError(.decodingFailed, serverMessage: "NULL array element") }
            result.append(element)
        }
        return result
    }
}

private func decodeIntegerArray<T: FixedWidthInteger>(_ text: String, _ type: PostgresType) throws(PostgresError) -> [T] {
    guard type.isIntegerArray else { throw mismatch(type, [T].self) }
    var result: [T] = []
    for element in try PostgresArrayLiteral.parse(text) {
        guard let element, let value = T(element) else {
            throw PostgresError(.decodingFailed, serverMessage: "NULL or out-of-range array element")
        }
        result.append(value)
    }
    return result
}

extension Int64: PostgresArrayDecodable {
    public static func postgresArray(postgresText: String, type: PostgresType) throws(PostgresError) -> [Int64] {
        try decodeIntegerArray(postgresText, type)
    }
}

extension Int: PostgresArrayDecodable {
    public static func postgresArray(postgresText: String, type: PostgresType) throws(PostgresError) -> [Int] {
        try decodeIntegerArray(postgresText, type)
    }
}

extension Int32: PostgresArrayDecodable {
    public static func postgresArray(postgresText: String, type: PostgresType) throws(PostgresError) -> [Int32] {
        try decodeIntegerArray(postgresText, type)
    }
}
