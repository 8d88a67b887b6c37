/// An Apple team ID (application identifier prefix): exactly 10 upper-case letters or digits, e.g. `ABCDE12345`.
public struct TeamID: Sendable, Hashable, CustomStringConvertible {
    /// The team ID text.
    public let rawValue: String

    /// Validates a team ID.
    /// - Parameter rawValue: the text, e.g. `ABCDE12345`.
    /// - Throws: `LinkKitError` `.invalidTeamID` unless it is 10 characters `A`–`Z`, `0`–`9`.
    public init(_ rawValue: String) throws(LinkKitError) {
        guard rawValue.utf8.count == 10, rawValue.utf8.allSatisfy(Self.isUpperAlphanumeric) else {
            throw LinkKitError(.invalidTeamID, "team ID '\(rawValue)' must be exactly 10 upper-case letters or digits, like ABCDE12345")
        }
        self.rawValue = rawValue
    }

    /// The team ID text.
    public var description: String { rawValue }

    /// Whether `text` could be an app ID prefix at all: one or more ASCII letters or digits. AASA lint warns
    /// (rather than errs) on such prefixes that are not strict team IDs, since A11's own example uses `ABCD1234`.
    /// - Parameter text: a candidate prefix.
    public static func isPlausiblePrefix(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { isUpperAlphanumeric($0) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
    }

    static func isUpperAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
