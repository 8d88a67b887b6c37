import Foundation
import LinkKit

/// A person who signs in (`people`): by email and password, or through their workspace's identity provider.
struct Person: Sendable, Equatable {
    let id: UUID
    /// Lower case, as stored: one person per address.
    let email: String
    let name: String
    /// Whether a password is set (the hash itself never leaves the store's sign-in query).
    let hasPassword: Bool
    let createdAt: Date

    var json: JSONValue {
        .object([
            "id": .uuid(id),
            "email": .string(email),
            "name": .string(name),
            "hasPassword": .bool(hasPassword),
            "createdAt": .timestamp(createdAt),
        ])
    }
}
