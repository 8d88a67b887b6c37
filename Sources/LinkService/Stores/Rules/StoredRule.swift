import Foundation
import LinkKit
import Postgres

/// A rule row with its apps, in the domain's order.
struct StoredRule: Sendable {
    let id: UUID
    let position: Int
    let definition: RuleDefinition
    let version: Int
    let createdAt: Date
    let updatedAt: Date

    /// A stored rule's definition from its `definition` column and apps (`app_ids`, as in `rule_apps`), read as
    /// the API reads a rule. Stored rules were validated when written, so problems are not reported: a member that
    /// does not decode (or a definition that does not parse, nil) is left out.
    static func definition(json: JSONValue?, apps: [UUID]) -> RuleDefinition {
        RuleDefinition(.object(json?.objectMembers ?? []), at: "", errors: FieldErrors(), allowIdentity: false, storedApps: apps)
    }

    var rule: LinkRule { definition.rule(id: id) }

    var json: JSONValue {
        var members: [JSONMember] = [
            JSONMember(key: "id", value: .uuid(id)),
            JSONMember(key: "position", value: .integer(position)),
            JSONMember(key: "apps", value: .array(definition.apps.map(JSONValue.uuid))),
        ]
        if case .object(let stored) = definition.json { members += stored }
        members += [
            JSONMember(key: "createdAt", value: .timestamp(createdAt)),
            JSONMember(key: "updatedAt", value: .timestamp(updatedAt)),
        ]
        return .object(members)
    }
}
