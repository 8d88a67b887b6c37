import LinkKit

/// The components of the members and password reset endpoints (`OpenAPIDocument`).
extension APISchemas {
    static let members: [(name: String, schema: Schema)] = [
        (
            "Member",
            Member.members.schema(closed: false).described("A person's membership of the workspace.")
        ),
        ("MemberUpdate", Schema.object([.required(InvitationFields.role)], closed: true)),
    ]

    static let passwordResets: [(name: String, schema: Schema)] = [
        ("PasswordResetRequest", Schema.object([.required(InvitationFields.email)], closed: true)),
        (
            "PasswordResetAccepted",
            Schema.object([.required("detail", Schema.string)], closed: false)
                .described("The same answer whether or not the address has an account.")
        ),
    ]
}
