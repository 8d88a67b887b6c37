extension JSONValue {
    /// The compact JSON text of this value: members in stored order, no insignificant whitespace, `/` not escaped,
    /// non-ASCII written as UTF-8. The same value always gives the same bytes (what ETags and Apple's CDN see).
    public var serialized: String {
        var out = ""
        serialize(into: &out)
        return out
    }

    /// Appends the compact JSON text of this value to `out`.
    /// - Parameter out: the text to append to.
    public func serialize(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let text): out += text
        case .string(let value): Self.appendQuoted(value, to: &out)
        case .array(let elements):
            out += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { out += "," }
                element.serialize(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (offset, member) in members.enumerated() {
                if offset > 0 { out += "," }
                Self.appendQuoted(member.key, to: &out)
                out += ":"
                member.value.serialize(into: &out)
            }
            out += "}"
        }
    }

    /// Appends `value` as a JSON string literal (RFC 8259 §7); only `"`, `\` and control characters are escaped.
    static func appendQuoted(_ value: String, to out: inout String) {
        out += "\""
        // Most strings need no escape: appended whole.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += value
            out += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let s where s.value < 0x20:
                let hex = Array("0123456789abcdef")
                out += "\\u00"
                out.append(hex[Int(s.value >> 4)])
                out.append(hex[Int(s.value & 0xF)])
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
