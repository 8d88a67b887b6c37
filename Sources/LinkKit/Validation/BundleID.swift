/// An Apple bundle ID: letters, digits, `-` and `.` in reverse-DNS form, e.g. `com.example.app` (A12).
///
/// Bundle IDs are case-insensitive (A12): equality here compares them case-insensitively.
public struct BundleID: Sendable, Hashable, CustomStringConvertible {
    /// The bundle ID as written.
    public let rawValue: String

    /// Validates a bundle ID.
    /// - Parameter rawValue: the text, e.g. `com.example.app`.
    /// - Throws: `LinkKitError` `.invalidBundleID` when it is empty, has a character other than `A`–`Z`, `a`–`z`,
    ///   `0`–`9`, `-`, `.`, or has an empty dot-separated part.
    public init(_ rawValue: String) throws(LinkKitError) {
        if let problem = Self.problem(rawValue) { throw LinkKitError(.invalidBundleID, problem) }
        self.rawValue = rawValue
    }

    /// The bundle ID as written.
    public var description: String { rawValue }

    /// Case-insensitive equality (A12).
    public static func == (lhs: BundleID, rhs: BundleID) -> Bool { lhs.rawValue.lowercased() == rhs.rawValue.lowercased() }

    /// Hashes the lower-cased text, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue.lowercased()) }

    /// Why `text` is not a bundle ID, or nil when it is one.
    static func problem(_ text: String) -> String? {
        if text.isEmpty { return "bundle ID is empty" }
        if let bad = text.first(where: { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".")) }) {
            return "bundle ID '\(text)' contains '\(bad)': only letters, digits, '-' and '.' are allowed"
        }
        if text.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            return "bundle ID '\(text)' has an empty part: dots must separate non-empty parts (reverse-DNS, like com.example.app)"
        }
        return nil
    }
}
