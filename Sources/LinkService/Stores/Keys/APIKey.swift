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

    var json: JSONValue {
        var members: [JSONMember] = [
            JSONMember(key: "id", value: .uuid(id)),
            JSONMember(key: "name", value: .string(name)),
            JSONMember(key: "prefix", value: .string(prefix)),
            JSONMember(key: "scope", value: .string(scope)),
            JSONMember(key: "role", value: .string(role)),
            // Null, not absent, when nobody is named: a key made on the command line, or its creator is gone.
            JSONMember(
                key: "createdBy",
                value: createdBy.map { .object(["id": .uuid($0), "email": creatorEmail.map(JSONValue.string) ?? .null]) } ?? .null),
            JSONMember(key: "createdAt", value: .timestamp(createdAt)),
        ]
        if let revokedAt { members.append(JSONMember(key: "revokedAt", value: .timestamp(revokedAt))) }
        return .object(members)
    }
}
