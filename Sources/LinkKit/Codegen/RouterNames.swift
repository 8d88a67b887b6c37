/// Identifiers of generated code: destination types and parameters are already identifiers (an ASCII letter,
/// then letters, digits and `_`), so only the target language's keywords need care; enum values are free text.
enum RouterNames {
    static let swiftKeywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal",
        "let", "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var", "break", "case", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in",
        "repeat", "return", "switch", "where", "while", "as", "Any", "catch", "false", "is", "nil", "super", "self", "Self",
        "throw", "throws", "true", "try", "type", "values", "json", "make", "invalid", "requiresSignIn",
    ]

    /// Kotlin's hard keywords, and the names `LinkDestination` and its companion already use.
    static let kotlinKeywords: Set<String> = [
        "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface", "is", "null",
        "object", "package", "return", "super", "this", "throw", "true", "try", "typealias", "typeof", "val", "var", "when",
        "while", "type", "values", "toJSON", "requiresSignIn", "Invalid", "Companion", "rawValue", "name", "ordinal",
    ]

    /// `name`, with `_` appended when it is one of `reserved`.
    static func identifier(_ name: String, avoiding reserved: Set<String>) -> String {
        reserved.contains(name) ? name + "_" : name
    }

    /// `widgetDetail` → `WidgetDetail`.
    static func upperCamel(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }

    /// Identifiers for enum values (`new-arrivals` → `new_arrivals`, `1` → `_1`), distinct, none in `reserved`.
    static func enumCases(_ values: [String], upperCase: Bool, avoiding reserved: Set<String>) -> [String] {
        var used: Set<String> = []
        return values.map { value in
            var name = String(value.unicodeScalars.map { scalar -> Character in
                let isWord = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
                return isWord ? Character(scalar) : "_"
            })
            if upperCase { name = name.uppercased() }
            if name.isEmpty || name.first!.isNumber { name = "_" + name }
            if reserved.contains(name) { name += "_" }
            var candidate = name
            var number = 2
            while !used.insert(candidate).inserted {
                candidate = name + "_\(number)"
                number += 1
            }
            return candidate
        }
    }
}
