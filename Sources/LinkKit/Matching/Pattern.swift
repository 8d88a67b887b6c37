import ByteText

/// An AASA pattern compiled to elements over UTF-8 bytes: literals, `?` (one character), `*` (any run) and substitution
/// variables (docs/aasa-semantics.md §4, §7). There is no escape syntax: `*`, `?` and `$(` are always special.
///
/// Case-insensitive patterns are compiled lower-cased and matched against lower-cased input, so matching itself
/// never folds case.
struct Pattern: Sendable, Hashable {
    enum Element: Sendable, Hashable {
        case literal([UInt8])
        case one
        case star
        case variable(Variable)
    }

    enum Variable: Sendable, Hashable {
        /// A built-in one-character class; `anyCase` when compiled case-insensitively.
        case characterClass(CharacterClass, anyCase: Bool)
        /// Declared or built-in values; each alternative has no variables of its own.
        case alternatives([[Element]])
        /// Undefined, or unterminated `$(`: never matches (docs/aasa-semantics.md §7, case sv-27).
        case never
    }

    enum CharacterClass: Sendable, Hashable {
        case alpha, upper, lower, alnum, digit, xdigit
    }

    /// A pattern without variables is its elements encoded in one buffer (`Code`): it is usually one short literal
    /// and a wildcard or two, which an array of elements with an array per literal would take three allocations for. A
    /// pattern with variables keeps its elements, which the recursive search walks. (One reference either way, so
    /// an optional pattern takes 8 bytes in a `CompiledRule`.)
    private enum Storage: Sendable, Hashable {
        case code([UInt8])
        case elements([Element])
    }

    private let storage: Storage

    var hasVariables: Bool {
        if case .elements = storage { return true }
        return false
    }

    /// The encoded elements (encoded on demand for a pattern with variables).
    var code: [UInt8] {
        switch storage {
        case .code(let code): code
        case .elements(let elements): Code.encode(elements)
        }
    }

    /// The elements of a pattern with variables; empty without variables.
    var variableElements: [Element] {
        if case .elements(let elements) = storage { return elements }
        return []
    }

    /// The elements (decoded from the code when the pattern has no variables).
    var elements: [Element] {
        switch storage {
        case .code(let code): Code.elements(code)
        case .elements(let elements): elements
        }
    }

    /// Compiles `text`.
    /// - Parameters:
    ///   - text: the pattern as written.
    ///   - caseSensitive: false to lower-case literals and variable values.
    ///   - variables: declared substitution variables; nil disables `$(...)` (variable values cannot nest).
    init(_ text: String, caseSensitive: Bool, variables: [String: [String]]?) {
        if let code = Self.asciiCode(text, caseSensitive: caseSensitive) {
            storage = .code(code)
            return
        }
        var elements: [Element] = []
        var literal = ""
        var hasVariables = false
        func flush() {
            guard !literal.isEmpty else { return }
            let bytes = Array((caseSensitive ? literal : literal.lowercased()).utf8)
            if case .literal(let previous)? = elements.last {
                elements[elements.count - 1] = .literal(previous + bytes)
            } else {
                elements.append(.literal(bytes))
            }
            literal = ""
        }
        var rest = Substring(text)
        while let character = rest.first {
            if character == "*" {
                flush()
                if elements.last != .star { elements.append(.star) }
                rest = rest.dropFirst()
            } else if character == "?" {
                flush()
                elements.append(.one)
                rest = rest.dropFirst()
            } else if let variables, rest.hasPrefix("$(") {
                flush()
                hasVariables = true
                guard let close = rest.firstIndex(of: ")") else {
                    elements.append(.variable(.never))
                    break
                }
                let name = String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close])
                elements.append(.variable(Self.resolve(name, caseSensitive: caseSensitive, variables: variables)))
                rest = rest[rest.index(after: close)...]
            } else {
                literal.append(character)
                rest = rest.dropFirst()
            }
        }
        flush()
        storage = hasVariables ? .elements(elements) : .code(Code.encode(elements))
    }

    /// The code of an ASCII pattern without variables (most patterns), written in one pass: for ASCII, bytes are
    /// the characters the general parser reads. Nil for any other text (and for a literal of 128 bytes or more,
    /// whose length takes more than one LEB128 byte): the general parser then compiles it.
    private static func asciiCode(_ text: String, caseSensitive: Bool) -> [UInt8]? {
        var code: [UInt8] = []
        code.reserveCapacity(text.utf8.count + 8)
        var literalStart = -1 // the open literal's tag position
        var afterStar = false // (`**` is `*`)
        func close() -> Bool {
            guard literalStart >= 0 else { return true }
            let length = code.count - literalStart - 2
            guard length < 0x80 else { return false }
            code[literalStart + 1] = UInt8(length)
            literalStart = -1
            return true
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "*"):
                guard close() else { return nil }
                if !afterStar { code.append(Code.star) }
                afterStar = true
                continue
            case UInt8(ascii: "?"):
                guard close() else { return nil }
                code.append(Code.one)
            case UInt8(ascii: "$"), 0x80...:
                return nil
            default:
                if literalStart < 0 {
                    literalStart = code.count
                    code.append(Code.literal)
                    code.append(0)
                }
                code.append(caseSensitive ? byte : ASCII.lowercased(byte))
            }
            afterStar = false
        }
        guard close() else { return nil }
        return code
    }

    /// The bytes every matching input starts with (empty when the pattern starts with a wildcard).
    var literalPrefix: [UInt8] {
        let code = self.code
        guard code.first == Code.literal else { return [] }
        return Array(code[Code.literalBytes(code, at: 0)])
    }

    /// True when the pattern is a lone `*`, which matches every input.
    var matchesEverything: Bool { code == [Code.star] }

    /// The encoding of elements: a literal is `1`, its length (LEB128) and its bytes; `?` is `2`, `*` is `3`; a
    /// variable is `4` (its value is in `variableElements`).
    enum Code {
        static let literal: UInt8 = 1
        static let one: UInt8 = 2
        static let star: UInt8 = 3
        static let variable: UInt8 = 4

        static func encode(_ elements: [Element]) -> [UInt8] {
            var size = 0
            for element in elements {
                guard case .literal(let bytes) = element else { size += 1; continue }
                size += 1 + LEB128.size(bytes.count) + bytes.count
            }
            var code: [UInt8] = []
            code.reserveCapacity(size)
            for element in elements {
                switch element {
                case .literal(let bytes):
                    code.append(literal)
                    LEB128.append(bytes.count, to: &code)
                    code += bytes
                case .one: code.append(one)
                case .star: code.append(star)
                case .variable: code.append(variable)
                }
            }
            return code
        }

        /// The range of the bytes of the literal whose tag is at `offset`.
        static func literalBytes<C: RandomAccessCollection<UInt8>>(_ code: C, at offset: C.Index) -> Range<C.Index> where C.Index == Int {
            LEB128.prefixedRange(code, at: offset + 1)
        }

        /// The elements of a pattern without variables.
        static func elements(_ code: [UInt8]) -> [Element] {
            var elements: [Element] = []
            var offset = 0
            while offset < code.count {
                switch code[offset] {
                case literal:
                    let bytes = literalBytes(code, at: offset)
                    elements.append(.literal(Array(code[bytes])))
                    offset = bytes.upperBound
                    continue
                case one: elements.append(.one)
                case star: elements.append(.star)
                default: elements.append(.variable(.never))
                }
                offset += 1
            }
            return elements
        }
    }

    private static func resolve(_ name: String, caseSensitive: Bool, variables: [String: [String]]) -> Variable {
        // Declared variables shadow the built-ins of the same name.
        if let values = variables[name] {
            let alternatives = values.map { Pattern($0, caseSensitive: caseSensitive, variables: nil).elements }
            return .alternatives(Array(Set(alternatives)).sorted { $0.count < $1.count })
        }
        let anyCase = !caseSensitive
        switch name {
        case "alpha": return .characterClass(.alpha, anyCase: anyCase)
        case "upper": return .characterClass(.upper, anyCase: anyCase)
        case "lower": return .characterClass(.lower, anyCase: anyCase)
        case "alnum": return .characterClass(.alnum, anyCase: anyCase)
        case "digit": return .characterClass(.digit, anyCase: anyCase)
        case "xdigit": return .characterClass(.xdigit, anyCase: anyCase)
        case "region": return literalAlternatives(BuiltInVariables.regions, caseSensitive: caseSensitive)
        case "lang": return literalAlternatives(BuiltInVariables.languages, caseSensitive: caseSensitive)
        default: return .never
        }
    }

    private static func literalAlternatives(_ values: [String], caseSensitive: Bool) -> Variable {
        .alternatives(values.map { [.literal(Array((caseSensitive ? $0 : $0.lowercased()).utf8))] })
    }
}

extension Pattern.CharacterClass {
    /// Whether `byte` (one ASCII character) belongs to the class.
    func contains(_ byte: UInt8, anyCase: Bool) -> Bool {
        let isUpper = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        let isLower = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        switch self {
        case .alpha: return isUpper || isLower
        case .upper: return isUpper || (anyCase && isLower)
        case .lower: return isLower || (anyCase && isUpper)
        case .alnum: return isUpper || isLower || isDigit
        case .digit: return isDigit
        case .xdigit: return Hex.value(byte) != nil
        }
    }
}
