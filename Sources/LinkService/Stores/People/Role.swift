/// What a person (or a key acting as one) may do in a workspace, each role all the ones below it may and more
/// (docs/PEOPLE.md, "Roles").
public enum Role: String, Sendable, Comparable, CaseIterable {
    /// Read everything the workspace holds.
    case viewer
    /// Also links, campaigns, tags, imports, QR codes and analytics.
    case editor
    /// Also apps, team IDs, domains, rules, webhooks and API keys.
    case admin
    /// Also members, invitations and single sign-on: everything.
    case owner

    private var rank: Int {
        switch self {
        case .viewer: 0
        case .editor: 1
        case .admin: 2
        case .owner: 3
        }
    }

    public static func < (lhs: Role, rhs: Role) -> Bool { lhs.rank < rhs.rank }

    /// The role a key of `scope` acts as when none is named: a read key as a viewer, any other as an admin (what
    /// such keys could do before keys had roles, `migrations/0030`).
    public static func implied(by scope: Scope) -> Role {
        scope == .read ? .viewer : .admin
    }
}
