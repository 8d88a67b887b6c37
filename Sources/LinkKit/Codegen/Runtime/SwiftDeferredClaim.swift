// MARK: - Deferred claims (the same in every generated file; docs/CODEGEN.md and docs/LANDING.md in linkd)

/// The link a person tapped before installing the app: its landing page handed a click token to the App Store
/// trip (on iOS, the claim link `https://<domain>/_linkd/claim/<token>` on the pasteboard, only on a domain that
/// opted in: `LinkRouter.claimDomains`), and the app claims it once per install with `POST /v1/deferred/claim`.
/// The token is the only credential: no key, no device data.
///
/// `@unchecked Sendable`: every stored property is a `let`, and `UserDefaults` is thread-safe as documented (not
/// every Foundation declares it `Sendable`).
public final class LinkDeferredClaim: @unchecked Sendable {
    /// The base URL of linkd's API, under which `v1/deferred/claim` is.
    public let server: URL
    /// The `UserDefaults` key recording that this install has claimed (or been told its token is gone).
    public let recordKey: String
    /// Where the record is kept, and the session the claim is posted with (a test's own, say).
    public let defaults: UserDefaults
    public let session: URLSession

    public init(server: URL, recordKey: String = "linkd.deferredClaim.claimed", defaults: UserDefaults = .standard, session: URLSession = .shared) {
        self.server = server
        self.recordKey = recordKey
        self.defaults = defaults
        self.session = session
    }

    /// Whether this install has claimed already: no token is read or sent again.
    public var hasClaimed: Bool { defaults.bool(forKey: recordKey) }

    /// The token of a claim link, when it is one on a domain that opted in to pasteboard claims; nil otherwise.
    public static func token(fromClaimLink text: String) -> String? {
        let link = text.trimmingCharacters(in: .whitespacesAndNewlines)
        for domain in LinkRouter.claimDomains {
            let prefix = "https://" + domain + "/_linkd/claim/"
            if link.hasPrefix(prefix), isToken(link.dropFirst(prefix.count)) { return String(link.dropFirst(prefix.count)) }
        }
        return nil
    }

    /// The token in an install referrer's items (`linkd_token=<token>&utm_source=…`); nil without one.
    public static func token(fromReferrer referrer: String) -> String? {
        for item in referrer.split(separator: "&") where item.hasPrefix("linkd_token=") {
            let token = item.dropFirst("linkd_token=".count)
            if isToken(token) { return String(token) }
        }
        return nil
    }

    /// 32 lower-case hexadecimal digits, as linkd issues them.
    static func isToken(_ text: Substring) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Claims `token` unless this install has: the destination of the link tapped before the install, or nil
    /// (none, another app's link, a token claimed or expired already, or no answer). A definite answer (200,
    /// 404, 410, 422) is recorded so the install never asks again; without an answer (offline, 5xx) the next
    /// launch may try again.
    public func claim(_ token: String) async -> LinkDestination? {
        guard !hasClaimed, Self.isToken(token[...]) else { return nil }
        var request = URLRequest(url: server.appendingPathComponent("v1/deferred/claim"), timeoutInterval: 15)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("{\"token\":\"\(token)\"}".utf8)
        guard let (data, response) = try? await session.data(for: request),
              let status = (response as? HTTPURLResponse)?.statusCode, status < 500, status != 429 else { return nil }
        defaults.set(true, forKey: recordKey)
        guard status == 200 else { return nil }
        return LinkDestination(resolveJSON: String(decoding: data, as: UTF8.self))
    }

    /// Claims `token` and hands the destination to `inbox`: returns what `inbox` hands out now. The inbox's
    /// `events` report the install with the token first (once per install, whatever the claim answers).
    public func claim(_ token: String, into inbox: LinkInbox) async -> [LinkDestination] {
        if Self.isToken(token[...]) { inbox.events?.reportInstall(clickToken: token) }
        guard let destination = await claim(token) else { return [] }
        return inbox.receive(destination)
    }
}
