import LinkKit

/// The bound of every text field the API stores, in one place: the database's own `CHECK (length(...))`
/// constraints where it has them (`migrations/0001`), the API's choice elsewhere. A field without a limit of
/// its own gets `TextLimit.standard` from `JSONObjectReader`. The names people read (`isName`: of workspaces,
/// keys, teams, apps, links, destinations' and previews' titles, fingerprints' labels, tags) refuse the
/// bidirectional controls, through every door that reads them (docs/DESIGN.md, "Bad input").
extension TextLimit {
    /// `workspaces.name`: `CHECK (length(name) BETWEEN 1 AND 100)`.
    static let workspaceName = TextLimit(scalars: 100, isName: true)
    /// `api_keys.name`: `CHECK (length(name) <= 200)`.
    static let keyName = TextLimit(scalars: 200, isName: true)
    /// Names of teams and apps, destination titles.
    static let name = TextLimit(scalars: 200, isName: true)
    /// A fingerprint's label.
    static let label = TextLimit(scalars: 100, isName: true)
    /// A rule's comment.
    static let comment = TextLimit(scalars: 500)
    /// A path, fragment, query or query-item pattern of a rule.
    static let pattern = TextLimit(scalars: 1024)
    /// Member names of maps (query items, destination parameters, substitution variables).
    static let memberName = TextLimit(scalars: 256)
    /// A bundle ID (Apple: at most 155 characters).
    static let bundleID = TextLimit(scalars: 155)
    /// An Android package name (at most 255 characters).
    static let packageName = TextLimit(scalars: 255)
    /// A hostname (RFC 1035: 253 bytes in its ASCII form).
    static let hostname = TextLimit(scalars: 253)
    /// A stored https URL (web fallback, Play Store link): ASCII in practice, so bytes and characters agree.
    static let url = TextLimit(scalars: 2000, bytes: 2000)
    /// A URL to resolve: as long as the request target of a `GET /v1/resolve` may be.
    static let resolveURL = TextLimit(scalars: 8192, bytes: 8192)
    /// `links.slug`: `CHECK (length(slug) BETWEEN 1 AND 200)`; URL-safe ASCII, so bytes and characters agree.
    static let slug = TextLimit(scalars: 200, bytes: 200)
    /// A link's campaign fields (`links.utm_*`: `CHECK (length(...) <= 200)`).
    static let campaign = TextLimit(scalars: 200)
    /// One tag of a link.
    static let tag = TextLimit(scalars: 50, isName: true)
    /// A link's preview description (its title is a `.name`).
    static let previewDescription = TextLimit(scalars: 1000)
}

extension TextLimit {
    /// `people.email`, `invitations.email`: `CHECK (length(email) BETWEEN 3 AND 254)`.
    static let email = TextLimit(scalars: 254, bytes: 254)
    /// `people.name`: `CHECK (length(name) <= 200)`.
    static let personName = TextLimit(scalars: 200, isName: true)
    /// A password as typed: Argon2id takes any length; this bounds the work a request can ask for.
    static let password = TextLimit(scalars: 1024, bytes: 4096)
}
