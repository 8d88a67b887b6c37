/// An HTTP request method. Extensible: any token the client sends is representable.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token as sent, e.g. `"GET"`.
    public let rawValue: String

    /// Wraps a method token.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `GET`
    public static let GET = HTTPMethod(rawValue: "GET")
    /// `HEAD`
    public static let HEAD = HTTPMethod(rawValue: "HEAD")
    /// `POST`
    public static let POST = HTTPMethod(rawValue: "POST")
    /// `PUT`
    public static let PUT = HTTPMethod(rawValue: "PUT")
    /// `PATCH`
    public static let PATCH = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`
    public static let DELETE = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`
    public static let OPTIONS = HTTPMethod(rawValue: "OPTIONS")

    /// The method token.
    public var description: String { rawValue }
}
