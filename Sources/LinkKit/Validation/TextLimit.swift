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
    /// Whether the field is a name people read (of a link, an app, a key, …): then it may not hold the
    /// bidirectional embedding, override and isolate controls (`isBidiControl`).
    public let isName: Bool

    /// A bound of `scalars` Unicode scalars and `bytes` UTF-8 bytes (by default 4 a scalar, UTF-8's longest:
    /// then only the scalar count can be exceeded); `isName` for a name people read.
    public init(scalars: Int, bytes: Int? = nil, isName: Bool = false) {
        self.scalars = scalars
        self.bytes = bytes ?? scalars * 4
        self.isName = isName
    }

    /// The same bounds without the name rule: for a name read back from storage, which may predate the rule
    /// (what reads it shows it isolated instead).
    public var lengthOnly: TextLimit { TextLimit(scalars: scalars, bytes: bytes) }

    /// U+202A-U+202E (LRE, RLE, PDF, LRO, RLO) and U+2066-U+2069 (LRI, RLI, FSI, PDI): they reorder the text after
    /// them, so a name `invoice<U+202E>gpj.exe` reads "invoiceexe.jpg" and can spill into what a page shows beside
    /// it (CVE-2021-42574, "Trojan Source"). The marks (U+200E, U+200F, U+061C) are left alone: each is one
    /// invisible strong character that reorders no run of letters, and right-to-left names need them beside digits
    /// and punctuation.
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
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

    /// Why `text` is too long (`"is longer than 200 characters"`), or holds a bidirectional control when it is a
    /// name, or nil when it is within both bounds. The usual text is decided by its byte count alone (a scalar
    /// takes at least one byte): no scalar is counted.
    public func violation(_ text: String) -> String? {
        let byteCount = text.utf8.count
        if byteCount > scalars || byteCount > bytes {
            var count = 0
            for _ in text.unicodeScalars {
                count += 1
                if count > scalars { return "is longer than \(scalars) characters (Unicode code points)" } // stops there
            }
            if byteCount > bytes { return "is longer than \(bytes) bytes (UTF-8)" }
        }
        // Every control is E2 80 xx or E2 81 xx in UTF-8: text without an E2 byte holds none.
        guard isName, text.utf8.contains(0xE2), let control = text.unicodeScalars.first(where: Self.isBidiControl) else { return nil }
        let code = String(control.value, radix: 16, uppercase: true)
        return
            "holds the bidirectional control U+\(code), which would change how the name reads (U+202A-202E and U+2066-2069 are refused in names)"
    }
}
