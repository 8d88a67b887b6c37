import Foundation
import LinkKit
import Postgres

/// A person's membership of a workspace, as the members list shows it.
struct Member: Sendable {
    let person: Person
    let role: Role
    let createdAt: Date
    let sortMicros: Int64

    var json: JSONValue { Self.members.json(self) }

    /// The API's form, declared once for the answers (`json`) and the document's `Member` component.
    static let members: [ResourceMember<Member>] = [
        .required("person", Schema.ref("Person")) { $0.person.json },
        .required("role", Schema.ref("Role")) { .string($0.role.rawValue) },
        .required("createdAt", Schema.timestamp.readOnly.described("When they joined the workspace.")) { .timestamp($0.createdAt) },
    ]
}
