import ByteText

extension JSONValue {
    /// The compact JSON text of this value: members in stored order, no insignificant whitespace, `/` not escaped,
    /// non-ASCII written as UTF-8. The same value always gives the same bytes (what ETags and Apple's CDN see).
    public var serialized: String { String(decoding: serializedBytes, as: UTF8.self) }

    /// The compact JSON text's UTF-8 bytes (what responses carry).
    public var serializedBytes: [UInt8] {
        var out: [UInt8] = []
        serialize(into: &out)
        return out
    }

    /// Appends the compact JSON text of this value to `out`.
    /// - Parameter out: the UTF-8 bytes to append to.
    public func serialize(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let value): Self.appendQuoted(value, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                element.serialize(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (offset, member) in members.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                Self.appendQuoted(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.serialize(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `value` as a JSON string literal (RFC 8259 §7); only `"`, `\` and control characters are escaped.
    static func appendQuoted(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let utf8 = value.utf8
        // Most strings need no escape: appended whole.
        guard utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            out.append(contentsOf: utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
            case ..<0x20: out.append(contentsOf: #"\u00"#.utf8 + [Hex.digit(byte >> 4), Hex.digit(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
