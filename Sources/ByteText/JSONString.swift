/// Writes JSON string literals without Foundation's encoders, which are slow on Linux (docs/field-notes.md §9).
public enum JSONString {
    /// Appends `value` as a quoted, escaped JSON string (RFC 8259 §7). `/` is not escaped.
    ///
    /// Works on UTF-8 bytes: only `"`, `\` and bytes below 0x20 are escaped, and these never occur inside a
    /// multi-byte sequence, so everything else is copied in runs (the common string needs no escape at all
    /// and is appended in one go).
    public static func append(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        appendEscaped(value, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// Appends `value` escaped as inside a JSON string, without the quotes: a string written in parts (escaping is
    /// per byte, so the parts' escapes are the whole's).
    public static func appendEscaped(_ value: String, to out: inout [UInt8]) {
        var value = value
        value.withUTF8 { appendEscaped(bytes: $0, to: &out) }
    }

    /// Appends `bytes` (UTF-8) escaped as inside a JSON string, without the quotes.
    ///
    /// Eight bytes are tested at a time for one that needs an escape (a URL or an id has none): runs without one
    /// are copied whole.
    public static func appendEscaped(bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return }
        let count = bytes.count
        var runStart = 0
        var index = 0
        while index < count {
            if index + 8 <= count, !wordNeedsEscape(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
                continue
            }
            let byte = bytes[index]
            if needsEscape(byte) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "\n"): out.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): out.append(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): out.append(UInt8(ascii: "t"))
                default:
                    out.append(contentsOf: "u00".utf8)
                    out.append(Hex.digit(byte >> 4))
                    out.append(Hex.digit(byte & 0xF))
                }
            }
            index += 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    /// Appends what `write` appends, as a quoted JSON string: written as it is, then escaped in place in the rare
    /// case that it holds a byte that needs it (a text written in parts escapes as its parts do).
    public static func appendQuoted(to out: inout [UInt8], _ write: (inout [UInt8]) -> Void) {
        out.append(UInt8(ascii: "\""))
        let start = out.count
        write(&out)
        if out[start...].contains(where: needsEscape) {
            let written = Array(out[start...])
            out.removeSubrange(start...)
            written.withUnsafeBufferPointer { appendEscaped(bytes: $0, to: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether one of the eight bytes of `word` needs an escape: a byte below 0x20, `"` or `\` (the bit tricks of
    /// "Bit Twiddling Hacks", "Determine if a word has a byte less than n" and "... equal to n").
    @inline(__always)
    private static func wordNeedsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let below = (word &- ones &* 0x20) & ~word & highs != 0
        return below || hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5C))
    }

    /// Appends `value` as a quoted, escaped JSON string to text (as `append(_:to:)` on bytes does).
    public static func append(_ value: String, to out: inout String) {
        var value = value
        if value.withUTF8({ !$0.contains(where: needsEscape) }) {
            out.append("\"")
            out += value // the common case: nothing to escape, one append
            out.append("\"")
        } else {
            var bytes: [UInt8] = []
            append(value, to: &bytes)
            out += String(decoding: bytes, as: UTF8.self)
        }
    }

    /// `"`, `\` and control characters; these bytes never occur inside a multi-byte UTF-8 sequence.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// `value` as a quoted, escaped JSON string.
    public static func quoted(_ value: String) -> String {
        var out = ""
        append(value, to: &out)
        return out
    }
}
