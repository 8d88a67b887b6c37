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
        case .string(let value): JSONString.append(value, to: &out)
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
                JSONString.append(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.serialize(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
