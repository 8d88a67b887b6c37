import LinkKit

/// The token endpoint's answer to an authorization code (OpenID Connect Core §3.1.3.3): the ID token is all
/// linkd uses; the access token is not kept.
public struct TokenResponse: Sendable {
    public let idToken: String

    /// The answer in `body` with `status`.
    /// - Throws: `OpenIDError` (`.tokenRequest`) for an error answer (naming the provider's `error` code) or one
    ///   without an ID token.
    init(status: Int, body: [UInt8]) throws(OpenIDError) {
        let json = try? JSONValue.parse(bytes: body)
        guard status == 200 else {
            let error = json?["error"]?.stringValue.map { String($0.prefix(64)) } ?? "no error code"
            throw OpenIDError(.tokenRequest, "the token endpoint answered \(status) (\(error))")
        }
        guard let idToken = json?["id_token"]?.stringValue else {
            throw OpenIDError(.tokenRequest, "the token endpoint answered no id_token")
        }
        self.idToken = idToken
    }
}
