/// A literal of a generated source file, written in any of the generated languages: records of the runtime with
/// named fields, named cases of its token types, lists, strings, integers, booleans and the absent value.
/// The router table is built once as values and printed per language (`CodeDialect`), so the three files carry
/// the same table, and every value in it reads by its name: a regeneration's diff shows what changed, not a
/// renumbering.
public indirect enum CodeValue: Sendable, Hashable {
    /// A record: Swift `Rule(path: …)`, Kotlin `Rule(path = …)`, TypeScript `{ path: … }`. Fields at their
    /// default are left out by whoever builds the value.
    case record(String, [Field])
    /// A named case of a token type: Swift `.literal("/a")` or `.star`, Kotlin `Glob.Literal("/a")` or
    /// `Glob.Star`, TypeScript `{ literal: "/a" }` or `"star"`. The first argument may be unlabelled (TypeScript
    /// writes it under the case's name).
    case token(String, String, [Field])
    /// A list on one line.
    case list([CodeValue])
    /// A list with one item a line (the table's specs, domains, entries and rules), so an added item is a line of
    /// its own in a diff.
    case lines([CodeValue])
    case string(String)
    case int(Int)
    case bool(Bool)
    case null

    /// One argument of a record or token: a label (nil for a token's first) and a value.
    public struct Field: Sendable, Hashable {
        public let label: String?
        public let value: CodeValue
        public init(_ label: String?, _ value: CodeValue) { (self.label, self.value) = (label, value) }
    }

    /// The value as source text in `dialect`, `lines` indented under `indent`.
    public func source(_ dialect: CodeDialect, indent: String = "") -> String {
        switch self {
        case .record(let name, let fields):
            let written = fields.map { field in (field.label ?? "") + dialect.label + field.value.source(dialect, indent: indent) }
            return dialect.objects ? "{ " + written.joined(separator: ", ") + " }" : name + "(" + written.joined(separator: ", ") + ")"
        case .token(let type, let name, let fields):
            if dialect.objects {
                guard !fields.isEmpty else { return dialect.quote(name) }
                return "{ " + fields.map { ($0.label ?? name) + ": " + $0.value.source(dialect, indent: indent) }.joined(separator: ", ")
                    + " }"
            }
            let head = dialect.tokenPrefix ? "." + name : type + "." + name.prefix(1).uppercased() + name.dropFirst()
            guard !fields.isEmpty else { return head }
            return head + "("
                + fields.map { ($0.label.map { $0 + dialect.label } ?? "") + $0.value.source(dialect, indent: indent) }.joined(
                    separator: ", ") + ")"
        case .list(let items):
            return dialect.listOpen + items.map { $0.source(dialect, indent: indent) }.joined(separator: ", ") + dialect.listClose
        case .lines(let items):
            let inner = indent + "    "
            let lines = items.map { inner + $0.source(dialect, indent: inner) }
            return dialect.listOpen + "\n"
                + (dialect.trailingComma ? lines.map { $0 + ",\n" }.joined() : lines.joined(separator: ",\n") + "\n")
                + indent + dialect.listClose
        case .string(let text): return dialect.quote(text)
        case .int(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return dialect.null
        }
    }
}

extension CodeValue {
    /// A record whose nil fields (left at their default) are left out.
    static func record(_ name: String, _ fields: KeyValuePairs<String, CodeValue?>) -> CodeValue {
        .record(name, fields.compactMap { label, value in value.map { Field(label, $0) } })
    }

    /// A token with its first argument unlabelled and the others labelled, nil ones left out.
    static func token(
        _ type: String, _ name: String, _ first: CodeValue? = nil, _ fields: KeyValuePairs<String, CodeValue?> = [:]
    ) -> CodeValue {
        .token(type, name, (first.map { [Field(nil, $0)] } ?? []) + fields.compactMap { label, value in value.map { Field(label, $0) } })
    }

    /// `values` as a list (`lines`: one a line), or nil (left out) when it is empty.
    static func listed(_ values: [CodeValue], lines: Bool = false) -> CodeValue? {
        values.isEmpty ? nil : lines ? .lines(values) : .list(values)
    }

    /// `true` for a flag that is set, nil (left out, the default) otherwise; `false` likewise for a flag cleared.
    static func flag(_ value: Bool, default fallback: Bool) -> CodeValue? { value == fallback ? nil : .bool(value) }
}

/// How one generated language writes `CodeValue`s.
public struct CodeDialect: Sendable {
    let listOpen: String
    let listClose: String
    let null: String
    /// What follows a field's label: `: ` or ` = `.
    let label: String
    /// Whether records are object literals and tokens strings or objects (TypeScript).
    let objects: Bool
    /// Whether a token is written `.name` (Swift), else `Type.Name`.
    let tokenPrefix: Bool
    /// Whether a list broken over lines ends every item with a comma, so an added last item changes no other line.
    let trailingComma: Bool
    /// Whether `$` is escaped too (a language whose `$` starts a template).
    let dollar: Bool
    /// Swift writes `\u{…}`; Kotlin and TypeScript `\uXXXX`.
    let braces: Bool

    public static let swift = CodeDialect(
        listOpen: "[", listClose: "]", null: "nil", label: ": ", objects: false, tokenPrefix: true,
        trailingComma: true, dollar: false, braces: true)
    /// Kotlin 1.3 allows no trailing comma.
    public static let kotlin = CodeDialect(
        listOpen: "listOf(", listClose: ")", null: "null", label: " = ", objects: false, tokenPrefix: false,
        trailingComma: false, dollar: true, braces: false)
    public static let typescript = CodeDialect(
        listOpen: "[", listClose: "]", null: "null", label: ": ", objects: true, tokenPrefix: false,
        trailingComma: true, dollar: false, braces: false)

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
