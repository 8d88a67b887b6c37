import LinkKit
import Outbound

/// The members of the members', invitations' and password resets' bodies, each declared once for the document and
/// the handler (`BodyField`).
enum InvitationFields {
    /// A mail address, read in lower case (one person per address).
    static let email = BodyField.validated("email", Schema.string(format: "email", minLength: 3, maxLength: 254), limit: .email) {
        text, pointer, errors in
        guard let text else { return nil }
        guard Mail.isAddress(text) else {
            errors.add(pointer, "'email' must be a mail address (name@example.com).")
            return nil
        }
        return text.lowercased()
    }
    static let role = BodyField.choice("role", Role.allCases.map(\.rawValue), schema: .ref("Role"))
    /// An invitation's one-time token, as its link carries it.
    static let token = BodyField.validated("token", Schema.string(pattern: "^[A-Za-z0-9_-]{43}$"), limit: TextLimit(scalars: 64)) {
        text, pointer, errors in
        guard let text else { return nil }
        guard SecretToken(presented: text[...]) != nil else {
            errors.add(pointer, "'token' is not an invitation's token: copy the whole link.")
            return nil
        }
        return text
    }
    static let name = BodyField.text("name", limit: .personName, "The person's name, when they are new.")
    static let password = BodyField.validated(
        "password",
        Schema.string(minLength: 12, maxLength: TextLimit.password.scalars)
            .described(
                "At least 12 characters, not the email. Needed for a new person; a person who has a password gives it (unless signed in)."),
        limit: .password
    ) { text, pointer, errors in
        guard let text else { return nil }
        guard text.count >= 12 else {
            errors.add(pointer, "The password must have at least 12 characters.")
            return nil
        }
        return text
    }
}
