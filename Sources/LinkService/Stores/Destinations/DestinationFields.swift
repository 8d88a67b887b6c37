/// The members of the destination types' request bodies, each declared once for the document and the handlers
/// (`BodyField`); `params` is read by `ParameterSpecJSON`.
enum DestinationFields {
    static let name = BodyField.validated("name", Schema.identifier.example("widgetDetail")) { Validators.identifier($0, at: $1, $2) }
    static let title = BodyField.text("title", limit: .name)
    static let description = BodyField.text("description", limit: .comment)
    static let imageURL = BodyField.validated("imageUrl", Schema.httpsURLInput, limit: .url, Validators.httpsURL)
    static let requiresSignIn = BodyField.flag(
        "requiresSignIn",
        "Links to it are for signed-in users: resolve says so, and a generated router keeps it until the app reports a signed-in user (default false)."
    )
}
