import Foundation
import LinkKit

/// A stored link as resolve and clicks use it (`LinkCache`): immutable, shared by every thread that serves it.
final class ServedLink: Sendable {
    let id: UUID
    let slug: String
    /// The app whose destination the link opens (canonical id text), and the destination; nil for a web page link.
    let appID: String?
    let destinationType: String?
    let params: [JSONMember]
    /// The web page the link opens (instead of an app).
    let webURL: String?
    let fallbacks: Fallbacks
    /// Whether a phone without the app goes to its fallback instead of the store (`Link.skipStore`).
    let skipStore: Bool
    let campaign: Link.Campaign
    let preview: LinkPreview
    let expiresAt: Date?
    let maxClicks: Int64?
    /// Taps counted in the database when the link was read, and this node's taps written by then
    /// (`LinkClickCounter`): what the node counts beyond those is added to `clicks`.
    let clicks: Int64
    let tapsWritten: Int64
    let name: String?
    /// The link's `data`, serialized, as resolve answers carry it.
    let data: [UInt8]?
    /// The link's targets and variants compiled (`ServedTargeting`); nil when it has none, and in each choice's link.
    let targeting: ServedTargeting?

    /// Per-platform fallback URLs (FDL's `ifl`, `ipfl`, `afl`, `ofl`).
    struct Fallbacks: Sendable {
        var ios: String?
        var ipad: String?
        var android: String?
        var desktop: String?
    }

    convenience init(_ link: Link, tapsWritten: Int64) {
        var params: [JSONMember] = []
        if case .object(let members)? = link.destination?["params"] { params = members }
        self.init(
            id: link.id, slug: link.slug, appID: link.appID?.canonicalText, destinationType: link.destination?["type"]?.stringValue,
            params: params, webURL: link.webURL,
            fallbacks: Fallbacks(
                ios: link.fallbacks["ios"]?.stringValue, ipad: link.fallbacks["ipad"]?.stringValue,
                android: link.fallbacks["android"]?.stringValue, desktop: link.fallbacks["desktop"]?.stringValue),
            skipStore: link.skipStore, campaign: link.campaign,
            preview: LinkPreview(
                title: link.preview["title"]?.stringValue, description: link.preview["description"]?.stringValue,
                imageURL: link.preview["imageUrl"]?.stringValue),
            expiresAt: link.expiresAt, maxClicks: link.maxClicks, clicks: link.clicks, tapsWritten: tapsWritten, name: link.name,
            data: link.data.map { Array($0.serialized.utf8) },
            targeting: link.targets != nil || link.variants != nil
                ? ServedTargeting(link) { ServedLink($0, tapsWritten: tapsWritten) } : nil)
    }

    /// A link from its served fields (`LinkSegment` decodes them so).
    init(
        id: UUID, slug: String, appID: String?, destinationType: String?, params: [JSONMember], webURL: String?,
        fallbacks: Fallbacks, skipStore: Bool, campaign: Link.Campaign, preview: LinkPreview, expiresAt: Date?,
        maxClicks: Int64?, clicks: Int64, tapsWritten: Int64, name: String?, data: [UInt8]?, targeting: ServedTargeting?
    ) {
        self.id = id
        self.slug = slug
        self.appID = appID
        self.destinationType = destinationType
        self.params = params
        self.webURL = webURL
        self.fallbacks = fallbacks
        self.skipStore = skipStore
        self.campaign = campaign
        self.preview = preview
        self.expiresAt = expiresAt
        self.maxClicks = maxClicks
        self.clicks = clicks
        self.tapsWritten = tapsWritten
        self.name = name
        self.data = data
        self.targeting = targeting
    }

    /// Whether the link still opens what it points at at `now`, given this node's `taps` of it (all, since start):
    /// not past `expiresAt`, not beyond `maxClicks`.
    func isLive(at now: Date, taps: Int64) -> Bool {
        if let expiresAt, now >= expiresAt { return false }
        if let maxClicks, clicks + (taps - tapsWritten) >= maxClicks { return false }
        return true
    }

    /// The typed destination `app` opens for this link: the parameters typed by the app's declaration, as resolve
    /// types a captured value; an explicit error when the app no longer declares the type or a value no longer fits.
    func destination(in app: DomainApp) -> ResolvedDestination? {
        guard let type = destinationType else { return nil }
        guard let declared = app.destinations[type] else {
            return .error(
                DestinationError(
                    code: .unknownDestination, param: nil,
                    detail: "The app \(app.identifier) has no destination type '\(type)'."))
        }
        let checked = declared.values(params)
        if let problem = checked.problems.first {
            return .error(DestinationError(code: .invalidParam, param: String(problem.pointer.dropFirst()), detail: problem.detail))
        }
        return .destination(type: type, params: checked.values.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) })
    }
}
