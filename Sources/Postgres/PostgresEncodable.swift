import ByteText
import Foundation

/// A Swift value that can be sent as a query parameter, in PostgreSQL's text format.
///
/// Parameters are always sent separately from the SQL (`PQexecParams`), so a value is data, never SQL,
/// whatever it contains.
public protocol PostgresEncodable: Sendable {
    /// The value in PostgreSQL's text input format; nil is SQL NULL.
    var postgresText: String? { get }
}

extension String: PostgresEncodable {
    public var postgresText: String? { self }
}

extension Int: PostgresEncodable {
    public var postgresText: String? { String(self) }
}

extension Int16: PostgresEncodable {
    public var postgresText: String? { String(self) }
}

extension Int32: PostgresEncodable {
    public var postgresText: String? { String(self) }
}

extension Int64: PostgresEncodable {
    public var postgresText: String? { String(self) }
}

extension Bool: PostgresEncodable {
    public var postgresText: String? { self ? "true" : "false" }
}

extension Double: PostgresEncodable {
    /// `Infinity`, `-Infinity` and `NaN` are spelled the way `float8in` expects; finite values round-trip exactly.
    public var postgresText: String? {
        if isNaN { return "NaN" }
        if isInfinite { return self < 0 ? "-Infinity" : "Infinity" }
        return "\(self)"
    }
}

extension UUID: PostgresEncodable {
    public var postgresText: String? { canonicalText }

    /// `uuid_out`'s form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lower-case hex: how ids appear in SQL text, JSON
    /// and logs. Written byte by byte: `uuid_unparse` goes through `sprintf` on Linux, and `uuidString.lowercased()`
    /// makes two strings (bench/hits/README.md has what each cost).
    public var canonicalText: String {
        String(unsafeUninitializedCapacity: 36) { writeCanonicalText(into: $0) }
    }

    /// Appends the 36 bytes of `canonicalText`.
    public func appendCanonicalText(to out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: 36))
        out.withUnsafeMutableBufferPointer { buffer in
            _ = writeCanonicalText(into: UnsafeMutableBufferPointer(rebasing: buffer[start...]))
        }
    }

    private func writeCanonicalText(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        withUnsafeBytes(of: uuid) { raw in
            var out = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    buffer[out] = UInt8(ascii: "-")
                    out += 1
                }
                buffer[out] = Hex.digit(raw[index] >> 4)
                buffer[out + 1] = Hex.digit(raw[index] & 0x0F)
                out += 2
            }
            return out
        }
    }
}

extension Date: PostgresEncodable {
    /// ISO 8601 in UTC with microseconds (`2026-11-29 13:01:02.123456+00`), PostgreSQL's own precision.
    public var postgresText: String? { PostgresTimestamp.format(self) }
}

extension Data: PostgresEncodable {
    /// `bytea` in hex format: `\x0aff...`.
    public var postgresText: String? { PostgresBytea.hex(self) }
}

extension Optional: PostgresEncodable where Wrapped: PostgresEncodable {
    public var postgresText: String? { self?.postgresText }
}

/// An element type whose Swift arrays have a PostgreSQL text form: `[UInt8]` is `bytea`,
/// `[String]` is `text[]`, `[Int64]`/`[Int]`/`[Int32]` are integer arrays.
/// (Swift allows one conditional conformance of `Array` per protocol, so the element type decides.)
public protocol PostgresArrayEncodable: Sendable {
    /// The text form of a whole array of `Self`.
    static func postgresArrayText(_ elements: [Self]) -> String
}

extension Array: PostgresEncodable where Element: PostgresArrayEncodable {
    public var postgresText: String? { Element.postgresArrayText(self) }
}

extension UInt8: PostgresArrayEncodable {
    /// `bytea` in hex format: `\x0aff...`.
    public static func postgresArrayText(_ elements: [UInt8]) -> String { PostgresBytea.hex(elements) }
}

extension String: PostgresArrayEncodable {
    public static func postgresArrayText(_ elements: [String]) -> String { PostgresArrayLiteral.format(elements) }
}

extension Int64: PostgresArrayEncodable {
    public static func postgresArrayText(_ elements: [Int64]) -> String { PostgresArrayLiteral.format(elements) }
}

extension Int: PostgresArrayEncodable {
    public static func postgresArrayText(_ elements: [Int]) -> String { PostgresArrayLiteral.format(elements) }
}

extension Int32: PostgresArrayEncodable {
    public static func postgresArrayText(_ elements: [Int32]) -> String { PostgresArrayLiteral.format(elements) }
}

/// A parameter wrapping JSON text, sent and received as `jsonb` (or `json`). The text is not validated
/// on the client: the server rejects malformed JSON with `22P02`.
public struct JSONText: PostgresEncodable, Hashable, CustomStringConvertible {
    /// The JSON document as text.
    public let json: String

    /// Wraps JSON text.
    public init(_ json: String) { self.json = json }

    /// Wraps UTF-8 JSON bytes (invalid UTF-8 is repaired with U+FFFD).
    public init(bytes: some Collection<UInt8>) { self.json = String(decoding: bytes, as: UTF8.self) }

    /// The JSON as UTF-8 bytes, for `JSONDecoder`.
    public var data: Data { Data(json.utf8) }

    public var postgresText: String? { json }
    public var description: String { json }
}
