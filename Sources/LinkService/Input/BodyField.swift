import LinkKit

/// One member of a JSON request body, declared once: its name, the schema the OpenAPI document prints for it
/// (`Schema.Property.required(_:)`, `.optional(_:)`), and how a handler reads it (`read(_:required:)`), errors
/// recorded at its pointer. A body whose members are all declared this way cannot accept what its document
/// refuses, or the reverse, by a slip in one of the two.
///
/// ```swift
/// static let name = BodyField.text("name", limit: .name)
/// Schema.object([.required(name)], closed: true)      // the document
/// let value = name.read(&body, required: true)        // the handler
/// ```
struct BodyField<Value>: Sendable {
    let name: String
    let schema: Schema
    private let reader: @Sendable (inout JSONObjectReader, String, Bool) -> Value?

    init(_ name: String, schema: Schema, reader: @escaping @Sendable (inout JSONObjectReader, String, Bool) -> Value?) {
        self.name = name
        self.schema = schema
        self.reader = reader
    }

    /// The member's value, marked as read; nil when absent, `null` or invalid (the error is in `body.errors`).
    func read(_ body: inout JSONObjectReader, required: Bool = false) -> Value? {
        reader(&body, name, required)
    }

    /// A `PATCH`'s rule for a setting with a default: when the member is present, `value` becomes what it reads,
    /// or `cleared` for `null` (and for an invalid value, whose error fails the request).
    func apply(_ body: inout JSONObjectReader, to value: inout Value, cleared: Value) {
        guard body.has(name) else { return }
        value = read(&body) ?? cleared
    }

    /// The same for an optional setting: `null` clears it.
    func apply(_ body: inout JSONObjectReader, to value: inout Value?) {
        guard body.has(name) else { return }
        value = read(&body)
    }
}

extension BodyField where Value == String {
    /// Free text within `limit` (code points and bytes, `TextLimit`).
    static func text(_ name: String, limit: TextLimit, _ description: String? = nil) -> BodyField {
        let schema = limit.isName ? Schema.name(maxLength: limit.scalars) : Schema.string(maxLength: limit.scalars)
        return BodyField(name, schema: description.map(schema.described) ?? schema) { body, name, required in
            body.string(name, required: required, limit: limit)
        }
    }

    /// Text checked by a validator (`Validators`), which records its own error at the member's pointer; `schema`
    /// states the same rule for the document.
    static func validated(
        _ name: String, _ schema: Schema, limit: TextLimit = .standard,
        _ validate: @escaping @Sendable (String?, String, FieldErrors) -> String?
    ) -> BodyField {
        BodyField(name, schema: schema) { body, name, required in
            validate(body.string(name, required: required, limit: limit), body.at(name), body.errors)
        }
    }

    /// A hostname, normalised as `Hostname` writes it (lower case, punycode); `refusal` is the error for text that
    /// is not one. Whether it names a domain of the workspace is for whoever reads it to ask.
    static func hostname(_ name: String, _ schema: Schema, refusal: String) -> BodyField {
        BodyField(name, schema: schema) { body, name, required in
            body.string(name, required: required, limit: .hostname).flatMap { text in
                guard let hostname = try? Hostname(text) else {
                    body.errors.add(body.at(name), refusal)
                    return nil
                }
                return hostname.rawValue
            }
        }
    }

    /// One of `values` (an enumeration's raw values); `schema` when the document names the enumeration as a
    /// component of its own.
    static func choice(_ name: String, _ values: [String], schema: Schema? = nil) -> BodyField {
        BodyField(name, schema: schema ?? .enumeration(values)) { body, name, required in
            guard let text = body.string(name, required: required) else { return nil }
            guard values.contains(text) else {
                body.errors.add(body.at(name), "'\(name)' must be one of \(values.joined(separator: ", ")), not '\(text.prefix(100))'.")
                return nil
            }
            return text
        }
    }
}

extension BodyField where Value == Int {
    /// A whole number within `range`, which the schema states too; `refusal` is the error for one outside it.
    static func integer(_ name: String, in range: ClosedRange<Int>, _ description: String, refusal: String) -> BodyField {
        let schema = Schema.integer(minimum: range.lowerBound, maximum: range.upperBound).described(description)
        return BodyField(name, schema: schema) { body, name, required in
            guard let number = body.integer(name, required: required) else { return nil }
            guard range.contains(Int(number)) else {
                body.errors.add(body.at(name), refusal)
                return nil
            }
            return Int(number)
        }
    }
}

extension BodyField where Value == Bool {
    /// `true` or `false`.
    static func flag(_ name: String, _ description: String? = nil) -> BodyField {
        BodyField(name, schema: description.map(Schema.boolean.described) ?? .boolean) { body, name, required in
            body.bool(name, required: required)
        }
    }
}

extension Schema.Property {
    /// The member `field` declares, always sent.
    static func required<Value>(_ field: BodyField<Value>) -> Schema.Property {
        .required(field.name, field.schema)
    }

    /// The member `field` declares, which may be absent; `nullable` when `null` reads as absent (request bodies).
    static func optional<Value>(_ field: BodyField<Value>, nullable: Bool = false) -> Schema.Property {
        .optional(field.name, nullable ? field.schema.nullable : field.schema)
    }
}
