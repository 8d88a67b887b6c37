/// What a new password must be (docs/PEOPLE.md, "Passwords"): at least 12 characters, and not the person's email.
/// Length is what resists guessing; rules of character classes are not imposed (NIST SP 800-63B §3.1.1.2).
enum PasswordPolicy {
    static let minimumLength = 12
    /// Longest accepted (Argon2id takes any length; this bounds the work a request can ask).
    static let maximumLength = 1024

    /// Why `password` may not be `email`'s; nil when it may.
    static func refusal(_ password: String, email: String) -> String? {
        if password.unicodeScalars.count < minimumLength { return "A password has at least \(minimumLength) characters." }
        if password.lowercased() == email.lowercased() { return "A password may not be the email address." }
        return nil
    }
}
