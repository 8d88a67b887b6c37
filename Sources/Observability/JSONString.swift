/// Writes JSON string literals without Foundation's encoders (which cost ~30 µs an object here).
public enum JSONString {
    /// Appends `value` as a quoted, escaped JSON string (RFC 8259 §7). `/` is not escaped.
    ///
    /// Works on UTF-8 bytes: only `"`, `\` and bytes below 0x20 are escaped, and these never occur inside a
    /// multi-byte sequence, so everything else is copied in runs (the common string needs no escape at all
    /// and is appended in one go).
    public static func append(_ value: String, to out: inout String) {
        out.append("\"")
        var value = value
        let clean = value.withUTF8 { bytes in !bytes.contains(where: needsEscape) }
        if clean {
            out += value   // the common case: nothing to escape, one append
        } else {
            value.withUTF8 { bytes in
                var runStart = 0
                for index in bytes.indices where needsEscape(bytes[index]) {
                    if runStart < index { out += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self) }
                    runStart = index + 1
                    switch bytes[index] {
                    case UInt8(ascii: "\""): out.append("\\\"")
                    case UInt8(ascii: "\\"): out.append("\\\\")
                    case UInt8(ascii: "\n"): out.append("\\n")
                    case UInt8(ascii: "\r"): out.append("\\r")
                    case UInt8(ascii: "\t"): out.append("\\t")
                    case let byte:
                        out.append("\\u00")
                        out.append(hexDigits[Int(byte >> 4)])
                        out.append(hexDigits[Int(byte & 0xF)])
                    }
                }
                if runStart < bytes.count {
                    out += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart...]), as: UTF8.self)
                }
            }
        }
        out.append("\"")
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

    private static let hexDigits: [Character] = Array("0123456789abcdef")
}
