import Foundation
import LinkKit
import Postgres

/// A link people create (issue 29): `https://<hostname>/<slug>` in a workspace, opening a typed destination of an
/// app or a web URL, with its fallbacks, campaign, tags, preview, expiry, click limit and data for the app.
struct Link: VersionedResource {
    static let auditType = "link"

    /// The `utm_*` values its taps carry.
    struct Campaign: Sendable, Equatable {
        var source: String?
        var medium: String?
        var campaign: String?
        var term: String?
        var content: String?

        var json: JSONValue {
            JSONValue.object([
                "source": .optional(source), "medium": .optional(medium), "campaign": .optional(campaign),
                "term": .optional(term), "content": .optional(content),
            ]).compacted
        }
    }

    let id: UUID
    var domainID: UUID
    var hostname: String
    var slug: String
    /// The app and its typed destination (`{"type", "params"}`), or `webURL`: exactly one of the two.
    var appID: UUID?
    var destination: JSONValue?
    var webURL: String?
    /// `{"ios", "ipad", "android", "desktop"}`, each an https URL, all optional: offered beside the store page
    /// (the website to continue to), or instead of it with `skipStore`.
    var fallbacks: JSONValue
    /// Whether a phone without the app goes to the link's fallback (else the web fallback) instead of the store, so
    /// without the deferred link (docs/LINKS.md, "Fallbacks").
    var skipStore: Bool
    var campaign: Campaign
    var tags: [String]
    /// `{"title", "description", "imageUrl"}`, all optional.
    var preview: JSONValue
    var expiresAt: Date?
    var maxClicks: Int64?
    var name: String?
    /// A JSON object of at most `LinkInput.dataLimit` bytes serialized.
    var data: JSONValue?
    /// The targets, in order, and the link's own variants (`LinkTargeting`); nil: none.
    var targets: [LinkTargeting.Target]? = nil
    var variants: [LinkTargeting.Variant]? = nil
    let version: Int
    let createdAt: Date
    let updatedAt: Date
    let sortMicros: Int64
    /// The taps counted as the database holds them (each node adds its own every second): held against `maxClicks`,
    /// and what `sort=clicks` orders by.
    var clicks: Int64 = 0

    /// The stored form of `targets` and `variants`.
    var targetsJSON: JSONValue? { targets.map { .array($0.map(\.json)) } }
    var variantsJSON: JSONValue? { variants.map { .array($0.map(\.json)) } }

    /// The link itself.
    var shortLink: String { "https://\(hostname)/\(slug)" }

    /// The API's form (`Link.members`).
    var json: JSONValue { Self.members.json(self) }

    var auditID: String { id.canonicalText }
}
