import Foundation
import LinkKit

/// Reads a stored rule `definition` (the `json` column's text) into a `RuleDefinition`.
///
/// Stored definitions were validated when written and have the few shapes `RuleDefinition.definition` writes, so they
/// are read here in one pass over the bytes, with no JSON tree, pointers or error list: a catalog load reads a
/// million of them. Anything else (an escape in a string, a member that is unknown or repeated, a value of an
/// unexpected type) is left to `StoredRule.input`, which reads any JSON exactly as the API does; both give the
/// same input for every text (`StoredDefinitionTests`).
struct StoredDefinition {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    /// The text is not in the shapes read here.
    private struct Unread: Error {}

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The rule definition a stored `definition` and the rule's `apps` make.
    static func definition(_ definition: some Collection<UInt8>, apps: [UUID]) -> RuleDefinition {
        if let read = definition.withContiguousStorageIfAvailable({ read($0, apps: apps) }) ?? nil { return read }
        return StoredRule.definition(json: try? JSONValue.parse(bytes: Array(definition)), apps: apps)
    }

    /// The rule definition, when `definition` is in the shapes read here.
    static func read(_ definition: UnsafeBufferPointer<UInt8>, apps: [UUID]) -> RuleDefinition? {
        var reader = StoredDefinition(definition)
        return try? reader.rule(apps: apps)
    }

    private mutating func rule(apps: [UUID]) throws(Unread) -> RuleDefinition {
        var input = RuleDefinition(apps: apps)
        var seen: UInt16 = 0
        try open()
        var first = true
        while let key = try nextKey(&first) {
            guard let member = Member(key), seen & member.bit == 0 else { throw Unread() }
            seen |= member.bit
            switch member {
            case .path: input.path = try pattern()
            case .fragment: input.fragment = try pattern()
            case .comment:
                input.comment = try optionalString()
                if let comment = input.comment, !TextLimit.comment.allows(comment) { throw Unread() }
            case .exclude: input.exclude = try optionalBool()
            case .caseSensitive: input.caseSensitive = try optionalBool()
            case .percentEncoded: input.percentEncoded = try optionalBool()
            case .query: input.query = try query()
            case .destination: input.destination = try destination()
            }
        }
        skipWhitespace()
        guard index == bytes.count else { throw Unread() }
        return input
    }

    private enum Member: Int {
        case path, query, fragment, exclude, caseSensitive, percentEncoded, comment, destination

        init?(_ key: UnsafeBufferPointer<UInt8>) {
            switch key.count {
            case 4 where StoredDefinition.equal(key, "path"): self = .path
            case 5 where StoredDefinition.equal(key, "query"): self = .query
            case 7 where StoredDefinition.equal(key, "exclude"): self = .exclude
            case 7 where StoredDefinition.equal(key, "comment"): self = .comment
            case 8 where StoredDefinition.equal(key, "fragment"): self = .fragment
            case 11 where StoredDefinition.equal(key, "destination"): self = .destination
            case 13 where StoredDefinition.equal(key, "caseSensitive"): self = .caseSensitive
            case 14 where StoredDefinition.equal(key, "percentEncoded"): self = .percentEncoded
            default: return nil
            }
        }

        var bit: UInt16 { 1 << rawValue }
    }

    /// `null` or a pattern within `TextLimit.pattern` (a pattern that does not parse reads as none, as in
    /// `RuleDefinition`).
    private mutating func pattern() throws(Unread) -> RulePattern? {
        guard let text = try optionalString() else { return nil }
        guard TextLimit.pattern.allows(text) else { throw Unread() }
        return try? RulePattern(text)
    }

    /// `null`, a pattern for the whole query, or an object of query item patterns.
    private mutating func query() throws(Unread) -> RuleQuery? {
        if literal("null") { return nil }
        if peek(UInt8(ascii: "\"")) { return .string(try string(within: .pattern)) }
        var items: [RuleQueryItem] = []
        var names: Set<String> = []
        try open()
        var first = true
        while let key = try nextKey(&first) {
            let name = try Self.text(key)
            guard !name.isEmpty, TextLimit.memberName.allows(name), names.insert(name).inserted else { throw Unread() }
            let text = try string(within: .pattern)
            if let pattern = try? RulePattern(text) { items.append(RuleQueryItem(name: name, pattern: pattern)) }
        }
        return .items(items)
    }

    /// `null` or `{"type": …, "params": {…}}` (a type that is not a valid name reads as no destination).
    private mutating func destination() throws(Unread) -> DestinationBinding? {
        if literal("null") { return nil }
        var type: String?
        var params: [String: DestinationBinding.Source] = [:]
        var seen = (type: false, params: false)
        try open()
        var first = true
        while let key = try nextKey(&first) {
            if Self.equal(key, "type"), !seen.type {
                seen.type = true
                type = try optionalString().flatMap { RouteTemplate.isValidName($0) ? $0 : nil }
            } else if Self.equal(key, "params"), !seen.params {
                seen.params = true
                params = try self.params()
            } else {
                throw Unread()
            }
        }
        return type.map { DestinationBinding(type: $0, params: params) }
    }

    /// `null` (none) or an object of parameter bindings: strings, numbers or booleans.
    private mutating func params() throws(Unread) -> [String: DestinationBinding.Source] {
        var params: [String: DestinationBinding.Source] = [:]
        if literal("null") { return params }
        try open()
        var first = true
        while let key = try nextKey(&first) {
            let name = try Self.text(key)
            guard params[name] == nil else { throw Unread() }
            if peek(UInt8(ascii: "\"")) {
                params[name] = RuleDefinition.source(boundTo: try string(within: .standard))
            } else if let flag = bool() {
                params[name] = .constant(flag ? "true" : "false")
            } else {
                params[name] = .constant(try number())
            }
        }
        return params
    }

    // MARK: - JSON

    /// Reads the `{` of an object.
    private mutating func open() throws(Unread) {
        skipWhitespace()
        guard take(UInt8(ascii: "{")) else { throw Unread() }
    }

    /// The next member's key, up to its `:`, or nil at the object's `}`. `first`: no member read yet.
    private mutating func nextKey(_ first: inout Bool) throws(Unread) -> UnsafeBufferPointer<UInt8>? {
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return nil }
        if !first {
            guard take(UInt8(ascii: ",")) else { throw Unread() }
            skipWhitespace()
        }
        first = false
        let key = try plainString()
        skipWhitespace()
        guard take(UInt8(ascii: ":")) else { throw Unread() }
        skipWhitespace()
        return key
    }

    /// A string or `null` (nil).
    private mutating func optionalString() throws(Unread) -> String? {
        literal("null") ? nil : try string()
    }

    /// `true`, `false` or `null` (nil).
    private mutating func optionalBool() throws(Unread) -> Bool? {
        if literal("null") { return nil }
        guard let flag = bool() else { throw Unread() }
        return flag
    }

    private mutating func string() throws(Unread) -> String {
        try Self.text(try plainString())
    }

    /// A string within `limit` (`RuleDefinition` leaves a longer one out).
    private mutating func string(within limit: TextLimit) throws(Unread) -> String {
        let text = try string()
        guard limit.allows(text) else { throw Unread() }
        return text
    }

    private mutating func bool() -> Bool? {
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    /// A number (RFC 8259 §6), as its text.
    private mutating func number() throws(Unread) -> String {
        do throws(JSONNumber.Flaw) {
            return try JSONNumber.text(bytes, at: &index)
        } catch {
            throw Unread()
        }
    }

    /// The bytes of a string that has no escapes and no control characters.
    private mutating func plainString() throws(Unread) -> UnsafeBufferPointer<UInt8> {
        guard take(UInt8(ascii: "\"")) else { throw Unread() }
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            guard bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 else { throw Unread() }
            index += 1
        }
        guard index < bytes.count else { throw Unread() }
        index += 1
        return UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)])
    }

    /// The string of valid UTF-8 bytes (ASCII, the usual case, needs no validation).
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>) throws(Unread) -> String {
        if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Unread() }
        return text
    }

    /// Whether `bytes` are `word`'s.
    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        bytes.count == word.utf8CodeUnitCount && (bytes.isEmpty || memcmp(bytes.baseAddress!, word.utf8Start, bytes.count) == 0)
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count, Self.equal(UnsafeBufferPointer(rebasing: bytes[index..<(index + count)]), word) else {
            return false
        }
        index += count
        return true
    }

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard peek(byte) else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }
}
