/// A path or query-value template with named captures, the single source of both an AASA pattern
/// (what iOS matches) and the typed parameters that resolve extracts.
///
/// Syntax: literal text plus captures.
/// - `{name}` captures one or more characters other than `/`; it becomes `?*` in the AASA pattern. When the
///   capture is optional (`optionalCaptures`: every parameter bound to it is optional, `LinkRule+OptionalCaptures`)
///   it captures zero or more and becomes `*`, so a link that leaves it out still matches (docs/LINKS.md).
/// - `{name*}` (last element only) captures the rest, slashes included, possibly empty; it becomes `*`.
/// - Two captures must be separated by literal text (otherwise the split would be ambiguous).
/// - Literal `*`, `?` and `$(` are refused: AASA patterns have no escape syntax, so they could only
///   ever be wildcards. Raw AASA patterns are a separate rule kind with no captures.
///
/// Because `?*` in AASA also matches `/`, a URL can match the generated pattern while a `{name}`
/// capture cannot be extracted (`/widget/1/2` for `/widget/{id}`): the app opens and resolve reports
/// an explicit `invalid_param` destination, exactly what iOS would do with the same file.
public struct RouteTemplate: Sendable, Hashable, CustomStringConvertible {
    /// One piece of a template.
    public enum Element: Sendable, Hashable {
        case literal(String)
        case capture(name: String, rest: Bool)
    }

    public let elements: [Element]
    /// The template as written.
    public let description: String
    /// The `{name}` captures a link may leave out (empty unless `LinkRule.withOptionalCaptures` marked them): not
    /// part of the text, which stays as written, but of what it matches, prints and writes into the AASA file.
    public let optionalCaptures: Set<String>

    /// Parses a template.
    /// - Throws: `LinkKitError` with a sentence naming the problem (unbalanced brace, bad capture name,
    ///   wildcard character in a literal, adjacent captures, `{x*}` not at the end, repeated name).
    public init(_ text: String) throws(LinkKitError) {
        optionalCaptures = []
        if let elements = Self.asciiElements(text) {
            self.elements = elements
            description = text
            return
        }
        var elements: [Element] = []
        var literal = ""
        var names: Set<String> = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "{" {
                guard let close = text[index...].firstIndex(of: "}") else {
                    throw Self.invalid(text, "a '{' has no matching '}'")
                }
                var name = String(text[text.index(after: index)..<close])
                let rest = name.hasSuffix("*")
                if rest { name.removeLast() }
                guard Self.isValidName(name) else {
                    throw Self.invalid(text, "'{\(name)}' is not a capture name (letters, digits and _, starting with a letter)")
                }
                guard names.insert(name).inserted else {
                    throw Self.invalid(text, "the capture '\(name)' appears twice")
                }
                if !literal.isEmpty {
                    elements.append(.literal(literal))
                    literal = ""
                } else if case .capture = elements.last {
                    throw Self.invalid(text, "two captures must be separated by literal text")
                }
                elements.append(.capture(name: name, rest: rest))
                index = text.index(after: close)
                if rest && index != text.endIndex {
                    throw Self.invalid(text, "'{\(name)*}' captures the rest and must come last")
                }
                continue
            }
            if character == "}" {
                throw Self.invalid(text, "a '}' has no matching '{'")
            }
            if character == "*" || character == "?" {
                throw Self.invalid(
                    text, "'\(character)' is a wildcard in AASA patterns; use a capture such as {name}, or a raw pattern rule")
            }
            if character == "$", text[index...].dropFirst().first == "(" {
                throw Self.invalid(text, "'$(' starts a substitution variable in AASA patterns; use a raw pattern rule for variables")
            }
            literal.append(character)
            index = text.index(after: index)
        }
        if !literal.isEmpty { elements.append(.literal(literal)) }
        self.elements = elements
        self.description = text
    }

    /// The elements of a valid ASCII template (most templates), read byte by byte: for ASCII, bytes are the
    /// characters the general parser reads. Nil for any other text, and for any problem (the general parser then
    /// reports it).
    private static func asciiElements(_ text: String) -> [Element]? {
        text.utf8.withContiguousStorageIfAvailable(asciiElements) ?? nil
    }

    private static func asciiElements(_ bytes: UnsafeBufferPointer<UInt8>) -> [Element]? {
        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        var elements: [Element] = []
        var literalStart = 0
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "}")) else { return nil }
                let rest = close > index + 1 && bytes[close - 1] == UInt8(ascii: "*")
                let name = text((index + 1)..<(rest ? close - 1 : close))
                guard isValidName(name), !elements.contains(where: { if case .capture(name, _) = $0 { true } else { false } }) else {
                    return nil
                }
                if literalStart < index {
                    elements.append(.literal(text(literalStart..<index)))
                } else if case .capture? = elements.last {
                    return nil
                }
                elements.append(.capture(name: name, rest: rest))
                index = close + 1
                literalStart = index
                if rest && index != bytes.count { return nil }
                continue
            case UInt8(ascii: "}"), UInt8(ascii: "*"), UInt8(ascii: "?"), 0x80...:
                return nil
            case UInt8(ascii: "$") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "("):
                return nil
            default:
                index += 1
            }
        }
        if literalStart < bytes.count { elements.append(.literal(text(literalStart..<bytes.count))) }
        return elements
    }

    /// A template from elements that came from a parsed template (its text is theirs, written back).
    init(elements: [Element], optionalCaptures: Set<String> = []) {
        self.elements = elements
        self.optionalCaptures = optionalCaptures
        description = elements.map { element in
            switch element {
            case .literal(let text): text
            case .capture(let name, let rest): "{" + name + (rest ? "*" : "") + "}"
            }
        }.joined()
    }

    /// The capture names in order.
    public var captureNames: [String] {
        elements.compactMap { if case .capture(let name, _) = $0 { name } else { nil } }
    }

    /// The AASA pattern iOS will match: captures become `?*` (one segment's worth, at least one character)
    /// or `*` (the rest, or an optional capture: an absent query item reads as the empty value,
    /// docs/aasa-semantics.md §5, and `?*` would refuse it).
    public var aasaPattern: String {
        elements.map { element -> String in
            switch element {
            case .literal(let text): text
            case .capture(let name, let rest): rest || optionalCaptures.contains(name) ? "*" : "?*"
            }
        }.joined()
    }

    /// This template with `names` (those of its `{name}` captures) optional.
    public func withOptionalCaptures(_ names: Set<String>) -> RouteTemplate {
        let marked = names.intersection(elements.compactMap { if case .capture(let name, false) = $0 { name } else { nil } })
        guard marked != optionalCaptures else { return self }
        return RouteTemplate(elements: elements, description: description, optionalCaptures: marked)
    }

    private init(elements: [Element], description: String, optionalCaptures: Set<String>) {
        self.elements = elements
        self.description = description
        self.optionalCaptures = optionalCaptures
    }

    /// Whether this template has no captures.
    public var isLiteral: Bool { captureNames.isEmpty }

    private static func invalid(_ template: String, _ reason: String) -> LinkKitError {
        LinkKitError(.invalidTemplate, "The template '\(template)' is invalid: \(reason).")
    }

    /// Whether `name` can name a capture, and so a destination type or parameter (parameters take the
    /// capture of the same name): an ASCII letter, then letters, digits or `_`, at most 64 characters.
    public static func isValidName(_ name: String) -> Bool {
        // ASCII only, so bytes are characters (and the ASCII alphabetic scalars are exactly A-Z and a-z).
        var count = 0
        for byte in name.utf8 {
            let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            if count == 0 ? !isLetter : !(isLetter || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")) {
                return false
            }
            count += 1
        }
        return count > 0 && count <= 64
    }
}
