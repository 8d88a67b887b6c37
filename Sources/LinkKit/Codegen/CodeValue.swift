/// A literal of a generated source file, written in any of the generated languages: calls of the runtime's
/// record constructors with positional arguments, lists, strings, integers, booleans and the absent value.
/// The router table is built once as values and printed per language (`CodeDialect`), so the three files
/// carry the same table.
public indirect enum CodeValue: Sendable, Hashable {
    case call(String, [CodeValue])
    case list([CodeValue])
    case string(String)
    case int(Int)
    case bool(Bool)
    case null

    /// The value as source text in `dialect`, one record a line at the top level of a list.
    public func source(_ dialect: CodeDialect, indent: String = "") -> String {
        switch self {
        case .call(let name, let arguments):
            return name + "(" + arguments.map { $0.source(dialect) }.joined(separator: ", ") + ")"
        case .list(let items):
            guard items.contains(where: { if case .call = $0 { true } else { false } }) else {
                return dialect.listOpen + items.map { $0.source(dialect) }.joined(separator: ", ") + dialect.listClose
            }
            let inner = indent + "    "
            return dialect.listOpen + "\n" + items.map { inner + $0.source(dialect, indent: inner) }.joined(separator: ",\n")
                + "\n" + indent + dialect.listClose
        case .string(let text): return dialect.quote(text)
        case .int(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return dialect.null
        }
    }
}

/// How one generated language writes `CodeValue`s.
public struct CodeDialect: Sendable {
    let listOpen: String
    let listClose: String
    let null: String
    /// Whether `$` is escaped too (a language whose `$` starts a template).
    let dollar: Bool
    /// Swift writes `\u{…}`; Kotlin and TypeScript `\uXXXX`.
    let braces: Bool

    public static let swift = CodeDialect(listOpen: "[", listClose: "]", null: "nil", dollar: false, braces: true)
    public static let kotlin = CodeDialect(listOpen: "listOf(", listClose: ")", null: "null", dollar: true, braces: false)
    public static let typescript = CodeDialect(listOpen: "[", listClose: "]", null: "null", dollar: false, braces: false)

    /// `text` as a string literal: printable ASCII as it is, everything else escaped, so the file is ASCII.
    func quote(_ text: String) -> String {
        var out = "\""
        // Swift escapes scalars (`\u{1F600}`); the others UTF-16 units (a pair for a scalar beyond U+FFFF).
        let units: [UInt32] = braces ? text.unicodeScalars.map(\.value) : text.utf16.map(UInt32.init)
        for unit in units {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x24 where dollar: out += "\\$"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(unit)!)
            default:
                let hex = String(unit, radix: 16, uppercase: true)
                out += "\\u" + (braces ? "{" + hex + "}" : String(repeating: "0", count: max(0, 4 - hex.count)) + hex)
            }
        }
        return out + "\""
    }
}
