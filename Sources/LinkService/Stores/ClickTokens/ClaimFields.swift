/// The member of `POST /v1/deferred/claim`'s body, declared once for the document and the handler (`BodyField`), and
/// the shape of the tokens `ClickTokens` issues.
enum ClaimFields {
    static let token = BodyField.validated(
        "token", Schema.string(pattern: "^[0-9a-f]{32}$").described("The click token: 32 lower-case hex digits."),
        limit: .name
    ) { token, pointer, errors in
        guard let token, !isToken(token) else { return token }
        errors.add(pointer, "token is the 32 lower-case hex digits after /_linkd/claim/ or linkd_token=.")
        return nil
    }

    /// Whether `text` has a token's shape (32 lower-case hex digits).
    static func isToken(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
