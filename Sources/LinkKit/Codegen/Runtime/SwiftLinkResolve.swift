// MARK: - Resolving targeted links (the same in every generated file; docs/CODEGEN.md, "Targeted links", in linkd)

/// Asks linkd's `GET /v1/resolve` what a targeted link opens for this visitor (`LinkRouter.decide` answers
/// `needsResolve` for it): the visitor's context goes with it (their variant's key, country, languages, OS version;
/// this app and its platform), so the phone gets the server's answer, never the rules' alone.
///
/// `@unchecked Sendable`: every stored property is a `let`, and `URLSession` is thread-safe as documented (not every
/// Foundation declares it `Sendable`).
public final class LinkResolveClient: @unchecked Sendable {
    /// The error destination's code when linkd gives no answer (offline, a timeout, a 5xx, a refused key).
    public static let unavailable = "resolve_unavailable"

    /// The base URL of linkd's API, under which `v1/resolve` is.
    public let server: URL
    /// A key with read scope, sent as `Authorization: Bearer`; nil for a linkd that resolves without one.
    public let key: String?
    public let session: URLSession
    /// How long a resolve may take before it counts as unanswered, in seconds.
    public let timeout: TimeInterval

    public init(server: URL, key: String? = nil, session: URLSession = .shared, timeout: TimeInterval = 15) {
        self.server = server
        self.key = key
        self.session = session
        self.timeout = timeout
    }

    /// The visitor a targeted link is decided for; each value left out is left to linkd (the country of the
    /// caller's address, the request's languages), and without `visitorID` the visitor is in no experiment.
    public struct Visitor: Hashable, Sendable {
        public var visitorID: String?
        public var country: String?
        public var language: String?
        public var osVersion: String?

        public init(visitorID: String? = nil, country: String? = nil, language: String? = nil, osVersion: String? = nil) {
            (self.visitorID, self.country, self.language, self.osVersion) = (visitorID, country, language, osVersion)
        }
    }

    /// The destination linkd answers for `url` and `visitor`; nil when the app opens nothing there (a web page,
    /// another app). When linkd cannot be reached, does not answer within `timeout` or answers no success: the error
    /// destination `invalid(code: "resolve_unavailable", …)`, so the app shows its own error screen rather than guess.
    public func resolve(_ url: String, visitor: Visitor = Visitor()) async -> LinkDestination? {
        // `URLRequest.timeoutInterval` bounds the wait between two packets, not the whole answer: the answer races a
        // deadline of `timeout`, and the request is cancelled when the deadline wins.
        await withCheckedContinuation { continuation in
            let once = Once()
            let work = Task {
                let answer = await self.fetch(url, visitor: visitor)
                once.run { continuation.resume(returning: answer) }
            }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(max(timeout, 0) * 1_000_000_000))
                once.run {
                    continuation.resume(returning: Self.unanswered("linkd did not answer in time."))
                    work.cancel()
                }
            }
        }
    }

    private func fetch(_ url: String, visitor: Visitor) async -> LinkDestination? {
        var items = [("url", url), ("platform", LinkRouter.platform), ("app", LinkRouter.appID)]
        for (name, value) in [
            ("visitorId", visitor.visitorID), ("country", visitor.country), ("language", visitor.language), ("osVersion", visitor.osVersion),
        ] {
            if let value { items.append((name, value)) }
        }
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~")
        let query = items.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
        guard let address = URL(string: server.appendingPathComponent("v1/resolve").absoluteString + "?" + query) else {
            return Self.unanswered("The resolve request could not be made.")
        }
        var request = URLRequest(url: address, timeoutInterval: timeout)
        if let key { request.setValue("Bearer " + key, forHTTPHeaderField: "Authorization") }
        let data: Data, response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as URLError where error.code == .timedOut {
            return Self.unanswered("linkd did not answer in time.")
        } catch {
            return Self.unanswered("linkd could not be reached.")
        }
        guard let status = (response as? HTTPURLResponse)?.statusCode, status == 200 else {
            return Self.unanswered("linkd answered no success.")
        }
        let text = String(decoding: data, as: UTF8.self)
        // A destination only where resolve says this app opens the URL.
        guard case .object(let members)? = LinkRouter.JSON.parse(text),
              case .string(let outcome)? = members.first(where: { $0.0 == "outcome" })?.1, outcome == "open_app" || outcome == "invalid_param",
              case .object(let app)? = members.first(where: { $0.0 == "app" })?.1,
              case .string(let id)? = app.first(where: { $0.0 == "id" })?.1, id == LinkRouter.appID else { return nil }
        return LinkDestination(resolveJSON: text)
    }

    /// `resolve(_:visitor:)` of a `URL`.
    public func resolve(_ url: URL, visitor: Visitor = Visitor()) async -> LinkDestination? {
        await resolve(url.absoluteString, visitor: visitor)
    }

    /// Resolves `url` and hands the destination to `inbox`: returns what `inbox` hands out now.
    public func resolve(_ url: String, visitor: Visitor = Visitor(), into inbox: LinkInbox) async -> [LinkDestination] {
        guard let destination = await resolve(url, visitor: visitor) else { return [] }
        return inbox.receive(destination)
    }

    private static func unanswered(_ detail: String) -> LinkDestination {
        .invalid(code: unavailable, param: nil, detail: detail)
    }

    /// Runs the first body it is given and no other: an answer and its deadline resume one continuation once.
    /// `@unchecked Sendable`: `done` is read and written under `lock` only.
    private final class Once: @unchecked Sendable {
        private let lock = NSLock()
        private var done = false

        func run(_ body: () -> Void) {
            lock.lock()
            let first = !done
            done = true
            lock.unlock()
            if first { body() }
        }
    }
}
