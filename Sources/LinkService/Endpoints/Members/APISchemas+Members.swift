import LinkKit

/// The components of the members and password reset endpoints (`OpenAPIDocument`).
extension APISchemas {
    static let personSummary = Schema.object([
        .required("id", Schema.uuid.readOnly),
        .required("email", Schema.string(format: "email", maxLength: 254)),
        .required("name", Schema.string(maxLength: 200)),
    ], closed: false)

    static let members: [(name: String, schema: Schema)] = [
        ("Role", Schema.enumeration(Role.allCases.map(\.rawValue))
            .described("What a person or key may do in a workspace, each role all the ones before it may and more: `viewer` reads; `editor` also links, imports, QR codes and analytics exports; `admin` also apps, teams, domains, rules, webhooks and keys; `owner` also members, invitations and single sign-on.")),
        ("Member", Schema.object([
            .required("person", personSummary),
            .required("role", Schema.ref("Role")),
            .required("createdAt", Schema.timestamp.readOnly.described("When they joined the workspace.")),
        ], closed: false).described("A person's membership of the workspace.")),
        ("MemberUpdate", Schema.object([.required(InvitationFields.role)], closed: true)),
    ]

    static let passwordResets: [(name: String, schema: Schema)] = [
        ("PasswordResetRequest", Schema.object([.required(InvitationFields.email)], closed: true)),
        ("PasswordResetAccepted", Schema.object([.required("detail", Schema.string)], closed: false)
            .described("The same answer whether or not the address has an account.")),
    ]
}
