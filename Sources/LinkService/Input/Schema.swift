import LinkKit

/// A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) written in Swift: the OpenAPI document's schemas
/// are values built with these constructors and rendered once at startup, members in the order written.
///
/// ```swift
/// .object([.required("teamId", .teamID), .optional("name", .string(maxLength: 200))], closed: true)
/// ```
struct Schema: Sendable {
    /// One property of an object schema.
    struct Property: Sendable {
        let name: String
        let schema: Schema
        let isRequired: Bool

        /// A property the object always has (responses) or the request must send.
        static func required(_ name: String, _ schema: Schema) -> Property {
            Property(name: name, schema: schema, isRequired: true)
        }

        /// A property that may be absent.
        static func optional(_ name: String, _ schema: Schema) -> Property {
            Property(name: name, schema: schema, isRequired: false)
        }
    }

    private(set) var members: [JSONMember]

    init(_ members: [JSONMember]) {
        self.members = members
    }

    /// The schema as JSON.
    var json: JSONValue { .object(members) }

    /// `{"$ref": "#/components/schemas/<name>"}`.
    static func ref(_ component: String) -> Schema {
        Schema([JSONMember(key: "$ref", value: .string("#/components/schemas/\(component)"))])
    }

    /// A string with optional constraints.
    static func string(format: String? = nil, pattern: String? = nil, minLength: Int? = nil, maxLength: Int? = nil) -> Schema {
        var schema = Schema([JSONMember(key: "type", value: .string("string"))])
        if let format { schema.add("format", .string(format)) }
        if let pattern { schema.add("pattern", .string(pattern)) }
        if let minLength { schema.add("minLength", .integer(minLength)) }
        if let maxLength { schema.add("maxLength", .integer(maxLength)) }
        return schema
    }

    /// Any string.
    static var string: Schema { string() }

    /// A whole number, optionally bounded.
    static func integer(minimum: Int? = nil, maximum: Int? = nil) -> Schema {
        var schema = Schema([JSONMember(key: "type", value: .string("integer"))])
        if let minimum { schema.add("minimum", .integer(minimum)) }
        if let maximum { schema.add("maximum", .integer(maximum)) }
        return schema
    }

    /// Any whole number.
    static var integer: Schema { integer() }

    /// `true` or `false`.
    static var boolean: Schema { Schema([JSONMember(key: "type", value: .string("boolean"))]) }
    static var number: Schema { Schema([JSONMember(key: "type", value: .string("number"))]) }

    /// Any JSON object (its members are described in prose).
    static var anyObject: Schema { Schema([JSONMember(key: "type", value: .string("object"))]) }

    /// A lower-case UUID, the id of most resources.
    static var uuid: Schema { string(format: "uuid") }

    /// An RFC 3339 UTC timestamp.
    static var timestamp: Schema { string(format: "date-time") }

    /// An absolute URL.
    static var url: Schema { string(format: "uri", maxLength: 2000) }

    /// One of `values`.
    static func enumeration(_ values: [String]) -> Schema {
        Schema([JSONMember(key: "type", value: .string("string")), JSONMember(key: "enum", value: .array(values.map(JSONValue.string)))])
    }

    /// Exactly `value` (a discriminator member).
    static func constant(_ value: String) -> Schema {
        Schema([JSONMember(key: "type", value: .string("string")), JSONMember(key: "const", value: .string(value))])
    }

    /// An array of `items`.
    static func array(_ items: Schema, minItems: Int? = nil, maxItems: Int? = nil, unique: Bool = false) -> Schema {
        var schema = Schema([JSONMember(key: "type", value: .string("array")), JSONMember(key: "items", value: items.json)])
        if let minItems { schema.add("minItems", .integer(minItems)) }
        if let maxItems { schema.add("maxItems", .integer(maxItems)) }
        if unique { schema.add("uniqueItems", .bool(true)) }
        return schema
    }

    /// An object with `properties`.
    /// - Parameter closed: a request body (or a part of one): `additionalProperties: false`, since the API rejects
    ///   unknown members (422 with a pointer), and every optional member also accepts `null`, which
    ///   `JSONObjectReader` reads as absent.
    static func object(_ properties: [Property], closed: Bool) -> Schema {
        var schema = Schema([JSONMember(key: "type", value: .string("object"))])
        let required = properties.filter(\.isRequired).map(\.name)
        if !required.isEmpty { schema.add("required", .array(required.map(JSONValue.string))) }
        schema.add(
            "properties",
            .object(
                properties.map { property in
                    JSONMember(
                        key: property.name, value: (closed && !property.isRequired ? property.schema.nullable : property.schema).json)
                }))
        if closed { schema.add("additionalProperties", .bool(false)) }
        return schema
    }

    /// An object used as a map: any member names, every value `values`.
    static func map(_ values: Schema) -> Schema {
        Schema([JSONMember(key: "type", value: .string("object")), JSONMember(key: "additionalProperties", value: values.json)])
    }

    /// Exactly one of `schemas`; with `discriminator`, the member that tells them apart and its value for each
    /// (`mapping` pairs a value with a component name).
    static func oneOf(_ schemas: [Schema], discriminator: String? = nil, mapping: KeyValuePairs<String, String> = [:]) -> Schema {
        var schema = Schema([JSONMember(key: "oneOf", value: .array(schemas.map(\.json)))])
        if let discriminator {
            var members = [JSONMember(key: "propertyName", value: .string(discriminator))]
            if !mapping.isEmpty {
                members.append(
                    JSONMember(
                        key: "mapping",
                        value: .object(
                            mapping.map {
                                JSONMember(key: $0.key, value: .string("#/components/schemas/\($0.value)"))
                            })))
            }
            schema.add("discriminator", .object(members))
        }
        return schema
    }

    /// At least one of `schemas`.
    static func anyOf(_ schemas: [Schema]) -> Schema {
        Schema([JSONMember(key: "anyOf", value: .array(schemas.map(\.json)))])
    }

    /// The same schema also accepting `null` (a `type` gains `"null"`, an `enum` or `const` the value null; anything
    /// else becomes `anyOf` with null). A schema that accepts null already (any value, with only annotations) is
    /// returned as it is.
    var nullable: Schema {
        let null = Schema([JSONMember(key: "type", value: .string("null"))])
        let annotations: Set = ["description", "examples", "readOnly", "default"]
        guard !members.allSatisfy({ annotations.contains($0.key) }), !acceptsNull else { return self }
        var copy = self
        guard let index = copy.members.firstIndex(where: { $0.key == "type" }), case .string(let type) = copy.members[index].value else {
            return .anyOf([self, null])
        }
        copy.members[index].value = .array([.string(type), .string("null")])
        if let values = copy.members.firstIndex(where: { $0.key == "enum" }), case .array(let list) = copy.members[values].value {
            copy.members[values].value = .array(list + [.null])
        }
        if let constant = copy.members.firstIndex(where: { $0.key == "const" }) {
            copy.members[constant] = JSONMember(key: "enum", value: .array([copy.members[constant].value, .null]))
        }
        return copy
    }

    /// Whether the schema says `null` outright: `"null"` among its types, or an `anyOf` with a null schema.
    private var acceptsNull: Bool {
        members.contains { member in
            switch (member.key, member.value) {
            case ("type", .array(let types)): types.contains(.string("null"))
            case ("anyOf", .array(let alternatives)): alternatives.contains { $0["type"] == .string("null") }
            default: false
            }
        }
    }

    /// The same schema with a `description` (what a reader of the API reference sees).
    func described(_ text: String) -> Schema {
        with("description", .string(text))
    }

    /// The same schema with an `examples` entry.
    func example(_ value: JSONValue) -> Schema {
        with("examples", .array([value]))
    }

    /// The same schema with a string example.
    func example(_ text: String) -> Schema {
        example(.string(text))
    }

    /// The same schema marked `readOnly` (in responses only).
    var readOnly: Schema { with("readOnly", .bool(true)) }

    /// The same schema with `key` set (replacing an earlier value).
    func with(_ key: String, _ value: JSONValue) -> Schema {
        var copy = self
        copy.add(key, value)
        return copy
    }

    private mutating func add(_ key: String, _ value: JSONValue) {
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(JSONMember(key: key, value: value))
        }
    }
}
