import LinkKit

/// What a verified ID token says of the person (OpenID Connect Core §2, §5.1).
public struct IDTokenClaims: Sendable {
    public let subject: String
    public let email: String?
    /// `email_verified`: only a verified address may find or create a person.
    public let emailVerified: Bool
    public let name: String?
    /// Every claim, for a configured one (the groups claim).
    public let all: JSONValue

    init(_ claims: JSONValue) throws(OpenIDError) {
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else { throw OpenIDError(.missingClaim, "the token has no sub") }
        self.subject = subject
        email = claims["email"]?.stringValue
        // Some providers write the boolean as a string.
        emailVerified = claims["email_verified"]?.boolValue ?? (claims["email_verified"]?.stringValue == "true")
        name = claims["name"]?.stringValue
        all = claims
    }

    /// The strings of claim `name`: an array's strings, or a single string (a provider with one group sends it
    /// so); empty when absent.
    public func strings(_ name: String) -> [String] {
        switch all[name] {
        case .string(let value)?: [value]
        case .array(let values)?: values.compactMap(\.stringValue)
        default: []
        }
    }
}
