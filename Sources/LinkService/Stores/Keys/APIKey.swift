import Foundation
import LinkKit
import Postgres

/// An API key as listings show it: never the secret, only its prefix.
struct APIKey: ResourceRow {
    let id: UUID
    let name: String
    let prefix: String
    let scope: String
    let createdAt: Date
    let revokedAt: Date?
    let sortMicros: Int64
    /// The role it acts as.
    let role: String
    /// The person who created it; nil for a key made on the command line, or when that person is gone.
    let createdBy: UUID?
    let creatorEmail: String?

    var json: JSONValue { Self.members.json(self) }

    /// The API's form, declared once for the answers (`json`) and the document's `APIKey` component (and
    /// `CreatedAPIKey`, which adds the secret).
    static let members: [ResourceMember<APIKey>] = [
        .required("id", Schema.uuid.readOnly) { .uuid($0.id) },
        .required("name", Schema.string(maxLength: TextLimit.keyName.scalars).described("A label for people; may be empty.")) {
            .string($0.name)
        },
        .required(
            "prefix",
            Schema.string.readOnly.described("`lk_` and the first 8 characters of the key id: tells keys apart in listings.").example(
                "lk_0f3c9a1b")
        ) { .string($0.prefix) },
        .required("scope", Schema.ref("Scope")) { .string($0.scope) },
        .required("role", Schema.ref("Role")) { .string($0.role) },
        // Null, not absent, when nobody is named: a key made on the command line, or its creator is gone.
        .nullable(
            "createdBy",
            Schema.object(
                [
                    .required("id", Schema.uuid.readOnly),
                    .required("email", Schema.string.nullable),
                ], closed: false
            ).nullable.described(
                "The person who created the key (signed in, or through a key they created); null for a key made on the command line, or when that person is gone."
            )
        ) { key in key.createdBy.map { .object(["id": .uuid($0), "email": key.creatorEmail.map(JSONValue.string) ?? .null]) } ?? .null },
        .required("createdAt", Schema.created) { .timestamp($0.createdAt) },
        .optional("revokedAt", Schema.timestamp.readOnly.described("When it was revoked; absent while the key is valid.")) {
            $0.revokedAt.map(JSONValue.timestamp) ?? .null
        },
    ]
}
