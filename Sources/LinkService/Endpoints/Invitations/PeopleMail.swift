import Foundation
import Outbound

/// The text of the mail linkd sends people: plain text naming the workspace, the role, who sent it, the link and
/// when the link ends (docs/PEOPLE.md, "Mail (SMTP)").
enum PeopleMail {
    /// An invitation to `workspace` as `role`, from `inviter` (a person's name and address, or a key's name).
    static func invitation(
        from sender: String, to email: String, workspace: String, role: Role, inviter: String, link: String,
        expiresAt: Date
    ) -> Mail {
        Mail(
            from: sender, to: email, subject: "Join \(workspace) on linkd as \(role.rawValue)",
            text: """
                Hello,

                \(inviter) invites you to the workspace "\(workspace)" on linkd, as \(article(role)) \(role.rawValue): \(duties(role)).

                Accept the invitation here:

                \(link)

                The link works once, until \(dateText(expiresAt)). If you did not expect this invitation, ignore this mail: \
                nothing happens without you.

                """)
    }

    /// A link resetting the password of `email`, a member of `workspaces`.
    static func passwordReset(from sender: String, to email: String, workspaces: [String], link: String, expiresAt: Date) -> Mail {
        let member =
            workspaces.isEmpty
            ? "" : " (\(workspaces.count == 1 ? "workspace" : "workspaces") \(workspaces.map { "\"\($0)\"" }.joined(separator: ", ")))"
        return Mail(
            from: sender, to: email, subject: "Reset your linkd password",
            text: """
                Hello,

                Someone asked to reset the password of the linkd account \(email)\(member).

                Choose a new password here:

                \(link)

                The link works once, until \(dateText(expiresAt)). If you did not ask, ignore this mail: your password \
                stays as it is.

                """)
    }

    /// What a role may do, as docs/PEOPLE.md's table says it.
    static func duties(_ role: Role) -> String {
        switch role {
        case .viewer: "you may read everything the workspace holds"
        case .editor: "you may read everything, and make links, campaigns, imports, QR codes and analytics exports"
        case .admin: "you may also manage apps, team IDs, domains, rules, webhooks and API keys"
        case .owner: "you may do everything, members and single sign-on included"
        }
    }

    private static func article(_ role: Role) -> String {
        role == .admin || role == .owner || role == .editor ? "an" : "a"
    }

    /// `2026-12-14 16:05 UTC`.
    static func dateText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }
}
