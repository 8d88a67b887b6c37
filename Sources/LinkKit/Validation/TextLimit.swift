/// The bound of one text field, in the unit PostgreSQL's `length()` counts: Unicode scalars (code points), not
/// the grapheme clusters `String.count` counts (one grapheme can hold any number of combining scalars, so a
/// grapheme count bounds nothing). Each field also has a bound in UTF-8 bytes, what it costs to store and send.
/// Every length check of the API and of LinkKit's validators goes through here, so the API and the database's
/// `CHECK (length(...) <= n)` constraints agree (docs/DESIGN.md, "Bad input").
public struct TextLimit: Sendable, Hashable {
    /// The most Unicode scalars.
    public let scalars: Int
    /// The most UTF-8 bytes.
    public let bytes: Int

    /// A bound of `scalars` Unicode scalars and `bytes` UTF-8 bytes (by default 4 a scalar, UTF-8's longest:
    /// then only the scalar count can be exceeded).
    public init(scalars: Int, bytes: Int? = nil) {
        self.scalars = scalars
        self.bytes = bytes ?? scalars * 4
    }

    /// What most free text gets (names of things are bounded tighter, by their own limits).
    public static let standard = TextLimit(scalars: 1000)

    /// The length of `text` as PostgreSQL's `length()` gives it: its Unicode scalars.
    public static func length(of text: String) -> Int {
        text.unicodeScalars.count
    }

    /// Whether `text` is within both bounds.
    public func allows(_ text: String) -> Bool {
        violation(text) == nil
    }

    /// Why `text` is too long (`"is longer than 200 characters"`), or nil when it is within both bounds.
    /// The usual text is decided by its byte count alone (a scalar takes at least one byte): no scalar is counted.
    public func violation(_ text: String) -> String? {
        let byteCount = text.utf8.count
        if byteCount <= scalars && byteCount <= bytes { return nil }
        var count = 0
        for _ in text.unicodeScalars {
            count += 1
            if count > scalars { return "is longer than \(scalars) characters (Unicode code points)" }   // stops there
        }
        return byteCount > bytes ? "is longer than \(bytes) bytes (UTF-8)" : nil
    }
}
