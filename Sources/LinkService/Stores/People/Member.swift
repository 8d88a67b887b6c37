import Foundation
import LinkKit
import Postgres

/// A person's membership of a workspace, as the members list shows it.
struct Member: Sendable {
    let person: Person
    let role: Role
    let createdAt: Date
    let sortMicros: Int64

    var json: JSONValue {
        .object([
            "person": .object(["id": .uuid(person.id), "email": .string(person.email), "name": .string(person.name)]),
            "role": .string(role.rawValue),
            "createdAt": .timestamp(createdAt),
        ])
    }
}
