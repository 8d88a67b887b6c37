/// The URLs outbound requests may go to, and nothing else: those under one of the configured bases (Apple's CDN,
/// Google's Digital Asset Links API) and `https://<host>/.well-known/…` for the given hosts (a workspace's link
/// domains). `HTTPClient.fetch` asks it before anything connects, so a URL built from stored data (a hostname
/// a workspace registered) cannot make linkd reach another server.
public struct OutboundTargets: Sendable {
    /// The base URLs; a URL is under one when it has the same scheme, host and port, no user information and no
    /// fragment, and its path is the base's path or, for a base whose path ends in `/`, starts with it.
    public let bases: [OutboundURL]
    /// Hosts (lower-case) whose own `/.well-known/` files may be fetched, over https on port 443 only.
    public let wellKnownHosts: Set<String>

    public init(bases: [OutboundURL], wellKnownHosts: some Sequence<String> = [String]()) {
        self.bases = bases
        self.wellKnownHosts = Set(wellKnownHosts.map { $0.lowercased() })
    }

    /// The configured Apple and Google bases, and the `/.well-known/` files of `linkHosts`.
    public init(_ configuration: OutboundConfiguration, linkHosts: some Sequence<String> = [String]()) {
        self.init(bases: [configuration.appleCDNBase.url, configuration.googleDALBase.url], wellKnownHosts: linkHosts)
    }

    /// `text` read as a URL when it is allowed; otherwise a `refusedTarget` failure saying why.
    public func check(_ text: String) -> Result<OutboundURL, OutboundFailure> {
        guard let url = OutboundURL(text) else {
            return .failure(OutboundFailure(.refusedTarget, "not an absolute http or https URL: \(text)"))
        }
        if url.hasUserInfo || url.hasFragment {
            return .failure(OutboundFailure(.refusedTarget, "a URL with user information or a fragment is never fetched: \(text)"))
        }
        // An encoded dot or slash could be decoded into another path by the server, after the prefix was checked.
        let lowered = url.path.lowercased()
        if lowered.contains("%2e") || lowered.contains("%2f") || lowered.contains("%5c") || url.path.contains("\\") {
            return .failure(OutboundFailure(.refusedTarget, "an encoded dot, slash or backslash in the path: \(text)"))
        }
        if bases.contains(where: { url.hasOrigin(of: $0) && Self.path(url.path, isUnder: $0.path) }) {
            return .success(url)
        }
        if url.scheme == "https", url.port == 443, wellKnownHosts.contains(url.host), url.path.hasPrefix("/.well-known/") {
            return .success(url)
        }
        return .failure(OutboundFailure(.refusedTarget, "not a configured base or a link domain's /.well-known/ file: \(text)"))
    }

    /// Whether `text` may be fetched.
    public func allows(_ text: String) -> Bool {
        if case .success = check(text) { true } else { false }
    }

    private static func path(_ path: String, isUnder base: String) -> Bool {
        path == base || (base.hasSuffix("/") && path.hasPrefix(base))
    }
}
