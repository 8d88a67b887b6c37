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

    /// A string member. Missing: an error when `required`. `null` reads as absent for optional members.
    mutating func string(_ key: String, required: Bool = false, maxLength: Int = 1000) -> String? {
        switch value(key) {
        case nil, .null?:
            if required { errors.add(at(key), "'\(key)' is required.") }
            return nil
        case .string(let text)?:
            if text.count > maxLength {
                errors.add(at(key), "'\(key)' is longer than \(maxLength) characters.")
                return nil
            }
            return text
        case let other?:
            errors.add(at(key), "'\(key)' must be a string, not \(other.typeName).")
            return nil
        }
    }

    mutating func bool(_ key: String, required: Bool = false) -> Bool? {
        switch value(key) {
        case nil, .null?:
            if required { errors.add(at(key), "'\(key)' is required.") }
            return nil
        case .bool(let flag)?:
            return flag
        case let other?:
            errors.add(at(key), "'\(key)' must be true or false, not \(other.typeName).")
            return nil
        }
    }

    mutating func integer(_ key: String, required: Bool = false) -> Int64? {
        switch value(key) {
        case nil, .null?:
            if required { errors.add(at(key), "'\(key)' is required.") }
            return nil
        case .number(let text)?:
            guard let number = Int64(text) else {
                errors.add(at(key), "'\(key)' must be an integer, not \(text).")
                return nil
            }
            return number
        case let other?:
            errors.add(at(key), "'\(key)' must be an integer, not \(other.typeName).")
            return nil
        }
    }

    /// A nested object member.
    mutating func object(_ key: String, required: Bool = false) -> JSONObjectReader? {
        switch value(key) {
        case nil, .null?:
            if required { errors.add(at(key), "'\(key)' is required.") }
            return nil
        case let member?:
            guard case .object = member else {
                errors.add(at(key), "'\(key)' must be an object, not \(member.typeName).")
                return nil
            }
            return JSONObjectReader(member, at: at(key), errors: errors)
        }
    }

    /// An array member as (element, pointer) pairs.
    mutating func array(_ key: String, required: Bool = false, maxCount: Int = 1000) -> [(value: JSONValue, pointer: String)]? {
        switch value(key) {
        case nil, .null?:
            if required { errors.add(at(key), "'\(key)' is required.") }
            return nil
        case .array(let elements)?:
            if elements.count > maxCount {
                errors.add(at(key), "'\(key)' has more than \(maxCount) elements.")
                return nil
            }
            return elements.enumerated().map { ($0.element, JSONPointer.appending(at(key), $0.offset)) }
        case let other?:
            errors.add(at(key), "'\(key)' must be an array, not \(other.typeName).")
            return nil
        }
    }

    /// An array of strings member.
    mutating func strings(_ key: String, required: Bool = false, maxCount: Int = 1000) -> [String]? {
        guard let elements = array(key, required: required, maxCount: maxCount) else { return nil }
        var out: [String] = []
        for (element, pointer) in elements {
            guard case .string(let text) = element else {
                errors.add(pointer, "Expected a string, found \(element.typeName).")
                continue
            }
            out.append(text)
        }
        return out
    }

    /// All member names, in order (for maps such as `params` or `substitutionVariables`), marked as read.
    mutating func keys() -> [String] {
        read = Array(repeating: true, count: members.count)
        return members.map(\.key)
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
