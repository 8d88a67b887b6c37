import LinkKit

/// A member of a resource's JSON answer, declared once: its name and schema give the document's property, its
/// `value` the member of the resource's `json` (what `BodyField` is to a request body). A member whose value is
/// `null` is left out of the answer, so an optional member is one that may be absent.
struct ResourceMember<Resource>: Sendable {
    let property: Schema.Property
    let value: @Sendable (Resource) -> JSONValue

    /// A member every answer has.
    static func required(_ name: String, _ schema: Schema, _ value: @escaping @Sendable (Resource) -> JSONValue) -> Self {
        Self(property: .required(name, schema), value: value)
    }

    /// A member absent when `value` is `null`.
    static func optional(_ name: String, _ schema: Schema, _ value: @escaping @Sendable (Resource) -> JSONValue) -> Self {
        Self(property: .optional(name, schema), value: value)
    }
}

extension Array {
    /// `resource` as the members declare it, in their order, without the `null` ones.
    func json<Resource>(_ resource: Resource) -> JSONValue where Element == ResourceMember<Resource> {
        JSONValue.object(map { JSONMember(key: $0.property.name, value: $0.value(resource)) }).compacted
    }

    /// The object schema of the members, in their order (`closed`: no other member may appear).
    func schema<Resource>(closed: Bool) -> Schema where Element == ResourceMember<Resource> {
        Schema.object(map(\.property), closed: closed)
    }
}
