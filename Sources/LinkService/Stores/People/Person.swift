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

    /// The person as others see them (a member, the signed-in person of `whoami`).
    var json: JSONValue { Self.members.json(self) }

    /// The form others see, declared once for the answers (`json`) and the document's `Person` component.
    static let members: [ResourceMember<Person>] = [
        .required("id", Schema.uuid.readOnly) { .uuid($0.id) },
        .required("email", Schema.string(maxLength: TextLimit.email.scalars)) { .string($0.email) },
        .required("name", Schema.string(maxLength: TextLimit.personName.scalars)) { .string($0.name) },
    ]
}
