import LinkKit

/// Reads the members of one JSON object with typed accessors that record what is wrong (with RFC 6901
/// pointers) instead of stopping at the first problem. `finish()` rejects members nobody asked for:
/// in a request they are usually typos (`casesensitive`), and silently ignoring them hides mistakes.
struct JSONObjectReader {
    let pointer: String
    let errors: FieldErrors
    private let members: [JSONMember]
    /// Whether each member's key was asked for (objects have a handful of members: a scan beats hashing).
    private var read: [Bool]

    /// - Parameter value: must be an object; anything else records an error and reads as empty.
    init(_ value: JSONValue, at pointer: String, errors: FieldErrors) {
        self.pointer = pointer
        self.errors = errors
        if case .object(let members) = value {
            self.members = members
        } else {
            self.members = []
            errors.add(pointer, "Expected an object, found \(value.typeName).")
        }
        read = Array(repeating: false, count: members.count)
    }

    /// The pointer of member `key`.
    func at(_ key: String) -> String { JSONPointer.appending(pointer, key) }

    /// Whether the member is present (even as `null`).
    func has(_ key: String) -> Bool { members.contains { $0.key == key } }

    /// The raw member value, marked as read.
    mutating func value(_ key: String) -> JSONValue? {
        var found: JSONValue?
        for index in members.indices where members[index].key == key {
            read[index] = true
            found = members[index].value
        }
        return found
    }

    /// The member `key` as `take` takes it from its value. Absent or `null`: nil, and an error when `required` (`null`
    /// reads as absent for optional members). A value `take` refuses (nil): an error saying it must be `expected`.
    private mutating func member<Value>(_ key: String, required: Bool, expected: String, _ take: (JSONValue) -> Value?) -> Value? {
        switch value(key) {
        case nil, .null?:
            if required { errors.add(at(key), "'\(key)' is required.") }
            return nil
        case let member?:
            guard let taken = take(member) else {
                errors.add(at(key), "'\(key)' must be \(expected), not \(member.typeName).")
                return nil
            }
            return taken
        }
    }

    /// A string member within `limit`.
    mutating func string(_ key: String, required: Bool = false, limit: TextLimit = .standard) -> String? {
        let text = member(key, required: required, expected: "a string") { if case .string(let text) = $0 { text } else { nil } }
        return text.flatMap { Self.within(limit, $0, at: at(key), named: "'\(key)'", errors) }
    }

    mutating func bool(_ key: String, required: Bool = false) -> Bool? {
        member(key, required: required, expected: "true or false") { if case .bool(let flag) = $0 { flag } else { nil } }
    }

    mutating func integer(_ key: String, required: Bool = false) -> Int64? {
        let text = member(key, required: required, expected: "an integer") { if case .number(let text) = $0 { text } else { nil } }
        guard let text else { return nil }
        guard let number = Int64(text) else {
            errors.add(at(key), "'\(key)' must be an integer, not \(text).")
            return nil
        }
        return number
    }

    /// A nested object member.
    mutating func object(_ key: String, required: Bool = false) -> JSONObjectReader? {
        let (pointer, errors) = (at(key), errors)
        return member(key, required: required, expected: "an object") {
            if case .object = $0 { JSONObjectReader($0, at: pointer, errors: errors) } else { nil }
        }
    }

    /// An array member as (element, pointer) pairs.
    mutating func array(_ key: String, required: Bool = false, maxCount: Int = 1000) -> [(value: JSONValue, pointer: String)]? {
        let elements = member(key, required: required, expected: "an array") { if case .array(let elements) = $0 { elements } else { nil } }
        guard let elements else { return nil }
        if elements.count > maxCount {
            errors.add(at(key), "'\(key)' has more than \(maxCount) elements.")
            return nil
        }
        return elements.enumerated().map { ($0.element, JSONPointer.appending(at(key), $0.offset)) }
    }

    /// An array of strings member, each within `limit` (those beyond it are left out, with an error).
    mutating func strings(_ key: String, required: Bool = false, maxCount: Int = 1000, limit: TextLimit = .standard) -> [String]? {
        guard let elements = array(key, required: required, maxCount: maxCount) else { return nil }
        var out: [String] = []
        for (element, pointer) in elements {
            guard case .string(let text) = element else {
                errors.add(pointer, "Expected a string, found \(element.typeName).")
                continue
            }
            if let text = Self.within(limit, text, at: pointer, named: "The text", errors) { out.append(text) }
        }
        return out
    }

    /// All member names, in order (for maps such as `params` or `substitutionVariables`), marked as read. A name
    /// beyond `limit` is recorded as an error (and still listed, so its value is read and checked too).
    mutating func keys(limit: TextLimit = .memberName) -> [String] {
        read = Array(repeating: true, count: members.count)
        for member in members { _ = Self.within(limit, member.key, at: at(member.key), named: "The member name", errors) }
        return members.map(\.key)
    }

    /// `text` when it is within `limit`; otherwise nil, and an error at `pointer` saying which bound it exceeds.
    static func within(
        _ limit: TextLimit, _ text: String, at pointer: @autoclosure () -> String, named name: @autoclosure () -> String,
        _ errors: FieldErrors
    ) -> String? {
        guard let violation = limit.violation(text) else { return text }
        errors.add(pointer(), "\(name()) \(violation).")
        return nil
    }

    /// Records an error for every member that was never read, and for repeated keys.
    func finish() {
        // Repeats found by a scan for the usual handful of members, by hashing for large maps.
        var seen: Set<String>? = members.count > 16 ? [] : nil
        for (index, member) in members.enumerated() {
            let repeated = seen == nil ? members[..<index].contains { $0.key == member.key } : !seen!.insert(member.key).inserted
            if repeated {
                errors.add(at(member.key), "'\(member.key)' appears more than once.")
            } else if !read[index] {
                errors.add(at(member.key), "Unknown field '\(member.key)'.")
            }
        }
    }
}
