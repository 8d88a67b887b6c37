import Foundation
import LinkKit

/// The members of the sessions' and passwords' request bodies (`BodyField`).
enum SessionFields {
    static let email = BodyField.text("email", limit: TextLimit(scalars: 254), "The person's email address (any case).")
    static let password = BodyField.text("password", limit: TextLimit(scalars: PasswordPolicy.maximumLength))
    static let newPassword = BodyField.validated(
        "password",
        Schema.string(minLength: PasswordPolicy.minimumLength, maxLength: PasswordPolicy.maximumLength)
            .described("The new password: at least \(PasswordPolicy.minimumLength) characters, not the email address."),
        limit: TextLimit(scalars: PasswordPolicy.maximumLength)
    ) { text, pointer, errors in
        guard let text else { return nil }
        guard text.unicodeScalars.count >= PasswordPolicy.minimumLength else {
            errors.add(pointer, "A password has at least \(PasswordPolicy.minimumLength) characters.")
            return nil
        }
        return text
    }
    static let token = BodyField.text(
        "token", limit: TextLimit(scalars: 64, bytes: 64), "The token of the one-time link (its `token` query item).")
    static let workspace = BodyField.validated("workspace", Schema.uuid.described("The id of a workspace the person belongs to.")) {
        text, pointer, errors in
        guard let text else { return nil }
        guard UUID(uuidString: text) != nil else {
            errors.add(pointer, "'workspace' must be a workspace id (a UUID).")
            return nil
        }
        return text
    }
}
