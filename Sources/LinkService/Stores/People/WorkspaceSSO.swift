import Foundation
import LinkKit
import Postgres

/// A workspace's single sign-on (`workspace_sso`, docs/PEOPLE.md "Single sign-on"): its OpenID Connect
/// provider and client, who may come in through it and with which role. The client secret stays sealed here;
/// the API never shows it.
struct WorkspaceSSO: Sendable, Equatable {
    static let auditType = "sso"

    let workspaceID: UUID
    let issuer: String
    let clientID: String
    let clientSecretSealed: [UInt8]
    let clientSecretKeyID: String
    /// Email domains (lower case) whose people may come in; empty: only existing members, any domain.
    let allowedDomains: [String]
    /// The role of a person added at their first sign-in; nil: nobody is added that way (unless a group maps).
    let defaultRole: Role?
    /// The ID token claim listing the person's groups, and the role each group gives.
    let groupsClaim: String?
    let groupRoles: [String: Role]
    /// Whether members must sign in through the provider (password sign-in refused).
    let required: Bool
    let updatedAt: Date

    /// The API's representation; `redirectURI` is what to register at the provider.
    func json(redirectURI: String) -> JSONValue {
        .object([
            "issuer": .string(issuer),
            "clientId": .string(clientID),
            "clientSecretSet": .bool(true),
            "allowedDomains": .array(allowedDomains.map(JSONValue.string)),
            "defaultRole": .optional(defaultRole?.rawValue),
            "groupsClaim": .optional(groupsClaim),
            "groupRoles": .object(groupRoles.keys.sorted().map { JSONMember(key: $0, value: .string(groupRoles[$0]!.rawValue)) }),
            "required": .bool(required),
            "redirectUri": .string(redirectURI),
            "updatedAt": .timestamp(updatedAt),
        ])
    }

    /// What the audit log keeps of it: everything but the sealed secret.
    var auditJSON: JSONValue { json(redirectURI: "") }

    /// The role a person with `groups` gets: the highest their groups map to, else `defaultRole` when `isNew`
    /// (an existing member keeps theirs: nil).
    func role(groups: [String], isNew: Bool) -> Role? {
        let mapped = groups.compactMap { groupRoles[$0] }.max()
        return mapped ?? (isNew ? defaultRole : nil)
    }

    /// Whether `email`'s domain is one of `allowedDomains`.
    func allows(email: String) -> Bool {
        guard let at = email.lastIndex(of: "@") else { return false }
        return allowedDomains.contains(String(email[email.index(after: at)...]).lowercased())
    }
}

extension WorkspaceSSO {
    /// Decodes `SSOStore.columns`, in order.
    init(row: Row) throws {
        let roles: String?
        let groupRolesText: String
        (
            workspaceID, issuer, clientID, clientSecretSealed, clientSecretKeyID, allowedDomains, roles, groupsClaim, groupRolesText,
            required,
            updatedAt
        ) = try row.decode((UUID, String, String, [UInt8], String, [String], String?, String?, String, Bool, Date).self)
        defaultRole = roles.flatMap(Role.init(rawValue:))
        var groupRoles: [String: Role] = [:]
        for member in (try? JSONValue.parse(groupRolesText))?.objectMembers ?? [] {
            if let role = member.value.stringValue.flatMap(Role.init(rawValue:)) { groupRoles[member.key] = role }
        }
        self.groupRoles = groupRoles
    }
}
