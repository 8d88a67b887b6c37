/// Writes JSON string literals without Foundation's encoders (which cost ~30 µs an object here).
public enum JSONString {
    /// Appends `value` as a quoted, escaped JSON string (RFC 8259 §7). `/` is not escaped.
    public static func append(_ value: String, to out: inout String) {
        out.append("\"")
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case let s where s.value < 0x20:
                out.append("\\u00")
                out.append(hexDigits[Int(s.value >> 4)])
                out.append(hexDigits[Int(s.value & 0xF)])
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out.append("\"")
    }

    /// `value` as a quoted, escaped JSON string.
    public static func quoted(_ value: String) -> String {
        var out = ""
        append(value, to: &out)
        return out
    }

    private static let hexDigits: [Character] = Array("0123456789abcdef")
}
