/// A JSON value tree that keeps object member order and duplicate keys.
///
/// `LinkKit` reads AASA and assetlinks files through this type rather than `JSONDecoder` so that lint can point at
/// exact places (RFC 6901 pointers), decoding can be as lenient as iOS is, and serialising is canonical and cheap.
/// Numbers keep their source text, so an `id` echoed by `linkd aasa decide` is byte-identical.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its JSON text (e.g. `"42"`, `"1.5e3"`).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object: members in source order; a key may repeat (the last one wins on lookup, as in `NSJSONSerialization`).
    case object([JSONMember])

    /// The value of the last member named `key`, if this is an object that has one.
    /// - Parameter key: the member name.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, if this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, if this is an object.
    public var objectMembers: [JSONMember]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The JSON type name used in messages: `null`, `boolean`, `number`, `string`, `array` or `object`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// An object from `(key, value)` pairs, in order.
    /// - Parameter pairs: the members.
    public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { JSONMember(key: $0.key, value: $0.value) })
    }

    /// A number from an integer.
    /// - Parameter value: the integer.
    public static func integer(_ value: Int) -> JSONValue { .number(String(value)) }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    /// The member name.
    public var key: String
    /// The member value.
    public var value: JSONValue

    /// Creates a member.
    /// - Parameters:
    ///   - key: the member name.
    ///   - value: the member value.
    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}
