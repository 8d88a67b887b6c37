import HTTPServer

/// Where linkd is reached, for what it prints of itself: one-time links (invitations, password resets) and the
/// single sign-on redirect URI. The configured base (`--public-url`, else `https://` and `--api-hostname`) when
/// set; else the origin the request was sent to (`requested`), the one rule the cross-origin check also uses.
public struct PublicOrigin: Sendable {
    /// The configured base without a trailing slash; nil when neither option is set.
    public let configured: String?

    public init(publicURL: String?, apiHostname: String?) {
        let base = publicURL ?? apiHostname.map { "https://\($0)" }
        configured = base.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    }

    /// The configured base, else the origin `request` was sent to, else `localhost` on its scheme.
    func of(_ request: Request) -> String {
        configured ?? Self.requested(request) ?? "\(request.scheme)://localhost"
    }

    /// `scheme://host[:port]` of `request`: its scheme (`https` behind a trusted TLS front end) and its `Host`,
    /// lowercased; nil without a `Host` or with one that is not a name or address and a port.
    static func requested(_ request: Request) -> String? {
        guard let host = request.headers["Host"], !host.isEmpty, host.utf8.allSatisfy({ hostBytes.contains($0) }) else { return nil }
        return "\(request.scheme)://\(host.lowercased())"
    }

    private static let hostBytes = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]".utf8)
}
