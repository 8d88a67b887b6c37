import LinkKit
import Outbound

/// What a provider's discovery document (`/.well-known/openid-configuration`, OpenID Connect Discovery §3)
/// says linkd needs: where to send the browser, where to redeem the code, where the keys are.
public struct ProviderMetadata: Sendable {
    public let issuer: String
    public let authorizationEndpoint: String
    public let tokenEndpoint: String
    public let jwksURI: String

    /// The document in `body`, which must name `issuer` exactly (Discovery §4.3) and give endpoints linkd may
    /// reach (`https`, or `http` when `allowHTTP`, without user information or fragment).
    /// - Throws: `OpenIDError` (`.discovery`).
    public init(json body: [UInt8], issuer: String, allowHTTP: Bool) throws(OpenIDError) {
        let json: JSONValue
        do { json = try JSONValue.parse(bytes: body) } catch { throw OpenIDError(.discovery, "the discovery document is not JSON") }
        guard json["issuer"]?.stringValue == issuer else {
            throw OpenIDError(.discovery, "the discovery document names another issuer than \(issuer)")
        }
        func endpoint(_ name: String) throws(OpenIDError) -> String {
            guard let text = json[name]?.stringValue else { throw OpenIDError(.discovery, "the discovery document has no \(name)") }
            if case .failure(let failure) = AddressPolicy.target(text, allowHTTP: allowHTTP) {
                throw OpenIDError(.discovery, "the discovery document's \(name) cannot be used: \(failure.message)")
            }
            return text
        }
        if let methods = json["token_endpoint_auth_methods_supported"]?.arrayValue,
            !methods.contains(.string("client_secret_basic"))
        {
            throw OpenIDError(.discovery, "the provider does not accept client_secret_basic at its token endpoint")
        }
        if let methods = json["code_challenge_methods_supported"]?.arrayValue, !methods.contains(.string("S256")) {
            throw OpenIDError(.discovery, "the provider does not support PKCE with S256")
        }
        self.issuer = issuer
        authorizationEndpoint = try endpoint("authorization_endpoint")
        tokenEndpoint = try endpoint("token_endpoint")
        jwksURI = try endpoint("jwks_uri")
    }

    /// The discovery document's URL for `issuer` (Discovery §4: the issuer without a trailing `/`, then the
    /// well-known path).
    public static func discoveryURL(_ issuer: String) -> String {
        (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + "/.well-known/openid-configuration"
    }
}
