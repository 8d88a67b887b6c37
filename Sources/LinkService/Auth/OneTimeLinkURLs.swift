import HTTPServer

/// The console's pages that one-time links open: `<base>/console/#/invitation?token=…` and
/// `<base>/console/#/password?token=…`, with the base linkd is reached at: the one printing of them (the API's
/// invitations and resets, `linkd users create`).
public struct OneTimeLinkURLs: Sendable {
    /// The base configured for links (`ServiceConfiguration.publicURL`, else `https://` and `--api-hostname`),
    /// without a trailing slash; nil when neither is set.
    public let configuredBase: String?

    public init(publicURL: String?, apiHostname: String?) {
        let base = publicURL ?? apiHostname.map { "https://\($0)" }
        configuredBase = base.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    }

    /// The configured base, else the origin `request` was sent to (what an owner's own request names: shown to
    /// them, and mailed on their behalf). A public request's `Host` never makes a link: see `configuredBase`.
    func base(for request: Request) -> String {
        if let configuredBase { return configuredBase }
        let host = request.headers["Host"].map { String($0.unicodeScalars.filter { Self.hostCharacters.contains($0) }) } ?? ""
        return "\(request.scheme)://\(host.isEmpty ? "localhost" : host)"
    }

    func invitation(_ token: SecretToken, base: String) -> String {
        "\(base)/console/#/invitation?token=\(token.text)"
    }

    public func password(_ token: SecretToken, base: String) -> String {
        "\(base)/console/#/password?token=\(token.text)"
    }

    private static let hostCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]".unicodeScalars)
}
