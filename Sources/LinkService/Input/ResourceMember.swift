import LinkKit

/// A member of a resource's JSON answer, declared once: its name and schema give the document's property, its
/// `value` the member of the resource's `json` (what `BodyField` is to a request body). A member whose value is
/// `null` is left out of the answer, so an optional member is one that may be absent; a `nullable` one is always
/// there, `null` included.
struct ResourceMember<Resource>: Sendable {
    let property: Schema.Property
    /// Whether a `null` value is written rather than left out.
    let keepsNull: Bool
    let value: @Sendable (Resource) -> JSONValue

    /// A member every answer has.
    static func required(_ name: String, _ schema: Schema, _ value: @escaping @Sendable (Resource) -> JSONValue) -> Self {
        Self(property: .required(name, schema), keepsNull: false, value: value)
    }

    /// A member absent when `value` is `null`.
    static func optional(_ name: String, _ schema: Schema, _ value: @escaping @Sendable (Resource) -> JSONValue) -> Self {
        Self(property: .optional(name, schema), keepsNull: false, value: value)
    }

    /// A member every answer has, whose value may be `null` (`schema` says so: `Schema.timestamp.nullable`).
    static func nullable(_ name: String, _ schema: Schema, _ value: @escaping @Sendable (Resource) -> JSONValue) -> Self {
        Self(property: .required(name, schema), keepsNull: true, value: value)
    }
}

extension Array {
    /// `resource` as the members declare it, in their order, without the `null`s of the members that may be absent.
    func json<Resource>(_ resource: Resource) -> JSONValue where Element == ResourceMember<Resource> {
        JSONValue.object(
            compactMap { member in
                let value = member.value(resource)
                return value == .null && !member.keepsNull ? nil : JSONMember(key: member.property.name, value: value)
            })
    }

    /// The object schema of the members, in their order, then `more` (what one answer adds to the resource: a
    /// secret shown once, a version's files); `closed`: no other member may appear.
    func schema<Resource>(closed: Bool, adding more: [Schema.Property] = []) -> Schema where Element == ResourceMember<Resource> {
        Schema.object(map(\.property) + more, closed: closed)
    }
}
