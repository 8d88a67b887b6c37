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

    var json: JSONValue {
        JSONValue.object([
            "id": .uuid(id),
            "name": .string(name),
            "prefix": .string(prefix),
            "scope": .string(scope),
            "createdAt": .timestamp(createdAt),
            "revokedAt": revokedAt.map(JSONValue.timestamp) ?? .null,
        ]).compacted
    }
}
