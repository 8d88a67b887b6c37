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
        value.withUTF8 { bytes in
            var runStart = 0
            for index in bytes.indices where needsEscape(bytes[index]) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                out.append(UInt8(ascii: "\\"))
                switch bytes[index] {
                case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "\n"): out.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): out.append(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): out.append(UInt8(ascii: "t"))
                case let byte:
                    out.append(contentsOf: "u00".utf8)
                    out.append(Hex.digit(byte >> 4))
                    out.append(Hex.digit(byte & 0xF))
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
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
