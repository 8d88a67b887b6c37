/// Identifiers of generated code. Destination types and parameters are identifiers already (an ASCII letter, then
/// letters, digits and `_`), enum values are free text; any of them may be a keyword of the target language or a
/// name the generated file itself uses where the user's name would stand (a member of `LinkDestination`, a type
/// its code names), so each generated name is claimed in a `Scope`: made an identifier, renamed with `_` appended
/// while it is reserved or already taken there (`Type` → `Type_`, `type` → `type_`, `a` and `A` stay distinct).
enum RouterNames {
    /// Swift's keywords (declarations, statements, expressions, patterns) and `_`.
    static let swiftKeywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "nonisolated", "open", "operator", "precedencegroup", "private", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await",
        "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_", "some", "any", "macro", "package", "async",
        "actor", "each", "copy", "discard",
    ]

    /// What a member of Swift's `LinkDestination` (a destination's case, an enum parameter's nested type) cannot
    /// be named: keywords, `Type` and `Protocol` (no type member may take them), the enum's own members, and the
    /// types and functions its code names unqualified (a member of that name would shadow them); `none`, which reads as `Optional.none`.
    static let swiftMembers: Set<String> = swiftKeywords.union([
        "Type", "Protocol", "none", "invalid", "type", "values", "json", "make", "requiresSignIn", "unreadable", "optional",
        "hashValue", "hash", "encode", "Key", "Hashable", "Codable", "Encoder", "Decoder", "CodingKey", "DecodingError",
        "LinkDestination", "LinkRouter", "LinkURLs", "LinkBuildError", "LinkInbox", "LinkDeferredClaim", "LinkEvents", "String", "Int",
        "Int64", "Bool",
        "Equatable", "Sendable",
        "URL", "UUID", "Foundation", "FoundationNetworking",
        "CaseIterable", "Optional", "Array", "Dictionary", "Character", "Swift", "Result", "Error", "RawRepresentable",
    ])

    /// What a case of a nested Swift enum (`String` raw values, `CaseIterable`) cannot be named.
    static let swiftEnumCases: Set<String> = swiftKeywords.union([
        "Type", "Protocol", "none", "rawValue", "RawValue", "allCases", "AllCases", "hashValue", "init",
    ])

    /// Kotlin's hard keywords.
    static let kotlinKeywords: Set<String> = [
        "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface", "is", "null",
        "object", "package", "return", "super", "this", "throw", "true", "try", "typealias", "typeof", "val", "var", "when",
        "while",
    ]

    /// What a class nested in Kotlin's `LinkDestination` (a destination's class, an enum parameter's enum class)
    /// cannot be named: `Invalid`, `Companion`, and the types its code names unqualified.
    static let kotlinClasses: Set<String> = kotlinKeywords.union([
        "Invalid", "Companion", "LinkDestination", "LinkRouter", "LinkURLs", "LinkBuildResult", "LinkInbox", "LinkDeferredClaim",
        "LinkEvents", "String", "Long", "Boolean", "Any",
        "Pair", "List", "Map", "Int", "Char", "Unit", "Nothing", "Array", "Enum", "Comparable", "Suppress", "JvmStatic", "JvmOverloads",
    ])

    /// What a property of a destination's data class cannot be named: keywords and `LinkDestination`'s members.
    static let kotlinProperties: Set<String> = kotlinKeywords.union([
        "type", "values", "toJSON", "requiresSignIn", "equals", "hashCode", "toString", "copy", "fromResolveJSON", "make",
        "Pair", "listOfNotNull", "emptyList",
    ])

    /// What an entry of a Kotlin enum class cannot be named (its members and `values`/`valueOf`).
    static let kotlinEnumEntries: Set<String> = kotlinKeywords.union(["value", "name", "ordinal", "values", "valueOf", "entries"])

    /// Names handed out in one namespace of a generated file.
    struct Scope {
        let reserved: Set<String>
        /// Whether names that differ only in their first letter's case meet (Kotlin properties: `any` and `Any`
        /// both have the JVM getter `getAny`, `Type` that of the parent's `type`).
        let foldsFirstLetter: Bool
        private var used: Set<String> = []

        init(reserved: Set<String>, foldsFirstLetter: Bool = false) {
            self.reserved = reserved
            self.foldsFirstLetter = foldsFirstLetter
        }

        private func key(_ name: String) -> String { foldsFirstLetter ? RouterNames.upperCamel(name) : name }

        private func isFree(_ name: String) -> Bool {
            !reserved.contains(name) && !used.contains(key(name))
                && !(foldsFirstLetter
                    && reserved.contains {
                        RouterNames.upperCamel($0) == key(name) && $0.first?.isLowercase == true && $0.count > 2
                            && !RouterNames.kotlinKeywords.contains($0)
                    })
        }

        /// `name` as an identifier free in this scope, taken: characters beyond ASCII letters, digits and `_`
        /// become `_` (then upper-cased with `upperCase`), a leading digit and an empty or all-`_` name get a prefix, then `_` is appended while the
        /// name is reserved or taken.
        mutating func claim(_ name: String, upperCase: Bool = false) -> String {
            var candidate = String(
                name.unicodeScalars.map { scalar -> Character in
                    let isWord = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
                    return isWord ? Character(scalar) : "_"
                })
            if upperCase { candidate = candidate.uppercased() }
            if candidate.first?.isNumber == true { candidate = "_" + candidate }
            if candidate.allSatisfy({ $0 == "_" }) { candidate = "v" + candidate }
            while !isFree(candidate) { candidate += "_" }
            used.insert(key(candidate))
            return candidate
        }
    }

    /// `widgetDetail` → `WidgetDetail`.
    static func upperCamel(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }

    /// Identifiers for enum values (`new-arrivals` → `new_arrivals`, `1` → `_1`, `-` → `v_`), distinct, none
    /// in `reserved`.
    static func enumCases(_ values: [String], upperCase: Bool, avoiding reserved: Set<String>) -> [String] {
        var scope = Scope(reserved: reserved)
        return values.map { scope.claim($0, upperCase: upperCase) }
    }
}
