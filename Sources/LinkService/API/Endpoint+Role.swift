import HTTPServer

/// The role an endpoint needs when its declaration names none: its tag's, for a read or for a write
/// (docs/PEOPLE.md, "Roles"). A declaration overrides it for what its tag's default does not fit (`whoAmI` for any
/// role, `listAPIKeys` for admins, `getQRCode` and `exportLinks` for editors).
extension Endpoint {
    /// Per tag, the lowest role that may read (a `GET`, or any call needing only the `read` scope, such as
    /// `POST /v1/resolve`) and the lowest that may write. A tag missing here is the owner's alone for both, and a test
    /// (`RolesTests`) names it.
    static let tagRoles: [String: (read: Role, write: Role)] = [
        "Association files": (.viewer, .admin),
        "Resolve": (.viewer, .editor),
        "Links": (.viewer, .editor),
        "Analytics": (.viewer, .editor),
        "Events": (.viewer, .editor),
        "Keys": (.admin, .admin),
        "Teams": (.viewer, .admin),
        "Apps": (.viewer, .admin),
        "Destinations": (.viewer, .admin),
        "Domains": (.viewer, .admin),
        "Rules": (.viewer, .admin),
        "Webhooks": (.viewer, .admin),
        "Audit": (.viewer, .admin),
        "Sessions": (.viewer, .viewer),
        "Members": (.admin, .owner),
        "Invitations": (.admin, .owner),
        "Single sign-on": (.owner, .owner),
    ]

    /// Whether a call of `method` needing `scope` only reads.
    static func reads(method: HTTPMethod, scope: Scope) -> Bool {
        scope == .read || method == .GET || method == .HEAD
    }

    /// The role of an endpoint of `tag` declared without one.
    static func defaultRole(tag: String, method: HTTPMethod, scope: Scope) -> Role {
        guard let roles = tagRoles[tag] else { return .owner }
        return reads(method: method, scope: scope) ? roles.read : roles.write
    }

    /// The roles that may call it, lowest first (`x-linkd-roles` in the OpenAPI document); empty for a public endpoint.
    var allowedRoles: [Role] {
        guard let role else { return [] }
        return Role.allCases.filter { $0 >= role }
    }
}
