import LinkKit

/// The components of the invitations endpoints (`OpenAPIDocument`).
extension APISchemas {
    static let invitations: [(name: String, schema: Schema)] = [
        (
            "Invitation",
            Schema.object(
                [
                    .required("id", Schema.uuid.readOnly),
                    .required("email", Schema.string(format: "email", maxLength: 254)),
                    .required("role", Schema.ref("Role")),
                    .required("status", Schema.enumeration(["pending", "accepted", "revoked", "expired"])),
                    .optional(
                        "invitedBy",
                        Schema.object(
                            [
                                .required("id", Schema.uuid.readOnly),
                                .required("email", Schema.string(format: "email", maxLength: 254)),
                            ], closed: false
                        ).described("Who invited; absent when it was a key of nobody's, or that person is gone.")),
                    .required("createdAt", Schema.created),
                    .required("expiresAt", Schema.timestamp.readOnly.described("When the link stops working.")),
                    .optional("acceptedAt", Schema.timestamp.readOnly),
                    .optional("revokedAt", Schema.timestamp.readOnly),
                ], closed: false
            ).described("An invitation to join the workspace: never its token.")
        ),
        ("InvitationCreate", Schema.object([.required(InvitationFields.email), .required(InvitationFields.role)], closed: true)),
        (
            "CreatedInvitation",
            Schema.object(
                [
                    .required("invitation", Schema.ref("Invitation")),
                    .required(
                        "link",
                        Schema.string(format: "uri").described(
                            "The one-time link, shown this once: `<base>/console/#/invitation?token=<token>`.")),
                    .required(
                        "mailed",
                        Schema.boolean.described("Whether the link was queued to be mailed (SMTP configured and the queue not full).")),
                ], closed: false)
        ),
        (
            "InvitationAccept",
            Schema.object(
                [
                    .required(InvitationFields.token), .optional(InvitationFields.name), .optional(InvitationFields.password),
                ], closed: true)
        ),
    ]
}
