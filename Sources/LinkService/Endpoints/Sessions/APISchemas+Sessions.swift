import LinkKit

/// The components of the sessions endpoints and of `GET /v1/whoami` (`OpenAPIDocument`).
extension APISchemas {
    static let sessions: [(name: String, schema: Schema)] = [
        ("SignIn", Schema.object([.required(SessionFields.email), .required(SessionFields.password)], closed: true)),
        ("SessionWorkspace", Schema.object([.required(SessionFields.workspace)], closed: true)),
        ("PasswordSet", Schema.object([.required(SessionFields.token), .required(SessionFields.newPassword)], closed: true)),
        (
            "Person",
            Person.members.schema(closed: false).described("A person, as others see them.")
        ),
        (
            "Role",
            Schema.enumeration(Role.allCases.map(\.rawValue))
                .described(
                    "What a person or key may do in a workspace, each role all the ones before it may and more: `viewer` reads; `editor` also links, imports, QR codes and analytics exports; `admin` also apps, teams, domains, rules, webhooks and keys; `owner` also members, invitations and single sign-on."
                )
        ),
        (
            "Session",
            Schema.object(
                [
                    .required("id", Schema.uuid.readOnly),
                    .required("via", Schema.enumeration(["password", "sso"]).described("How the person signed in.")),
                    .required("createdAt", Schema.created),
                    .required(
                        "lastSeenAt",
                        Schema.timestamp.readOnly.described("Its last request (to within a minute): the idle lifetime runs from here.")),
                    .required("expiresAt", Schema.timestamp.readOnly.described("Its absolute end.")),
                    .required("address", Schema.string.described("The client address it began from.")),
                    .required("userAgent", Schema.string(maxLength: 512).described("The browser it began in.")),
                    .required("current", Schema.boolean.described("Whether it is the session of this request.")),
                ], closed: false
            ).described("A signed-in browser of the person.")
        ),
        (
            "SessionList",
            Schema.object([.required("items", Schema.array(.ref("Session")))], closed: false)
                .described("The person's live sessions, newest first.")
        ),
        (
            "WhoAmI",
            Schema.object(
                [
                    .required(
                        "workspace",
                        Schema.object(
                            [
                                .required("id", Schema.uuid.readOnly),
                                .required("name", Schema.string(maxLength: 100)),
                            ], closed: false)),
                    .required("scope", Schema.ref("Scope")),
                    .required("role", Schema.ref("Role")),
                    .required(
                        "via",
                        Schema.enumeration(["key", "session"]).described(
                            "How the caller authenticated: an API key or a person's session cookie.")),
                    .required("key", Schema.ref("APIKey").nullable.described("The key it called with; null for a session.")),
                    .required("person", Schema.ref("Person").nullable.described("The signed-in person; null for a key.")),
                    .optional(
                        "workspaces",
                        Schema.array(
                            Schema.object(
                                [
                                    .required("id", Schema.uuid.readOnly),
                                    .required("name", Schema.string(maxLength: 100)),
                                    .required("role", Schema.ref("Role")),
                                ], closed: false)
                        ).described("Every workspace the person belongs to, with their role in each (sessions only).")),
                    .required("session", Schema.ref("Session").nullable.described("The caller's session; null for a key.")),
                ], closed: false
            ).described("Who is calling: the workspace, the scope and role acted with, and the key or the person's session.")
        ),
    ]
}
