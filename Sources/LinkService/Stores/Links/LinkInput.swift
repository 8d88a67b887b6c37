import Foundation
import LinkKit

/// The writable fields of a link, read and validated from a create or `PATCH` body (`LinkFields`). What needs
/// the database (the domain, the app and its destination type, a free slug) is checked by the handler.
struct LinkInput {
    /// The most bytes `data` may serialize to.
    static let dataLimit = 4096
    /// The most tags a link may have.
    static let maxTags = 20

    var domain: String?
    var slug: String?
    var app: UUID?
    var destination: DestinationInput?
    var url: String?
    var fallbacks: JSONValue?
    var skipStore: Bool?
    var campaign: Link.Campaign?
    var tags: [String]?
    var preview: JSONValue?
    var expiresAt: Date?
    var maxClicks: Int64?
    var name: String?
    var data: JSONValue?
    var targets: [LinkTargeting.Target]?
    var variants: [LinkTargeting.Variant]?
    /// The members the body holds, `null` included (a `PATCH` clears those that are `null`).
    private var present: Set<String> = []
    /// The members the body holds with a value other than `null`.
    private var given: Set<String> = []

    /// Reads every member; on create, `domain` is required, and either `app` with `destination` or `url`.
    init(reading body: inout JSONObjectReader, creating: Bool) {
        for field in [
            LinkFields.domain.name, LinkFields.slug.name, LinkFields.app.name, LinkFields.destination.name, LinkFields.url.name,
            LinkFields.fallbacks.name, LinkFields.skipStore.name, LinkFields.campaign.name, LinkFields.tags.name, LinkFields.preview.name,
            LinkFields.expiresAt.name, LinkFields.maxClicks.name, LinkFields.name.name, LinkFields.data.name,
            LinkFields.targets.name, LinkFields.variants.name,
        ] where body.has(field) {
            present.insert(field)
            if body.value(field) != JSONValue.null { given.insert(field) }
        }
        domain = LinkFields.domain.read(&body, required: creating)
        slug = LinkFields.slug.read(&body)
        app = LinkFields.app.read(&body)
        destination = LinkFields.destination.read(&body)
        url = LinkFields.url.read(&body)
        fallbacks = LinkFields.fallbacks.read(&body)
        skipStore = LinkFields.skipStore.read(&body)
        campaign = LinkFields.campaign.read(&body)
        tags = LinkFields.tags.read(&body)
        preview = LinkFields.preview.read(&body)
        expiresAt = LinkFields.expiresAt.read(&body)
        maxClicks = LinkFields.maxClicks.read(&body)
        name = LinkFields.name.read(&body)
        data = LinkFields.data.read(&body)
        targets = LinkFields.targets.read(&body)
        variants = LinkFields.variants.read(&body)
        if creating,
            let problem = Self.targetProblem(
                app: given.contains(LinkFields.app.name),
                destination: given.contains(LinkFields.destination.name), url: given.contains(LinkFields.url.name))
        {
            body.errors.add(body.at(problem.member), problem.detail)
        }
    }

    /// The link a create makes of this input on `domain`, with `id` (its slug is empty when none was given: the
    /// caller generates one); its version and timestamps are the database's.
    func newLink(on domain: Domain, id: UUID = UUID()) -> Link {
        Link(
            id: id, domainID: domain.id, hostname: domain.hostname, slug: slug ?? "", appID: app, destination: destination?.json,
            webURL: url, fallbacks: fallbacks ?? .object([]), skipStore: skipStore ?? false, campaign: campaign ?? Link.Campaign(),
            tags: tags ?? [],
            preview: preview ?? .object([]), expiresAt: expiresAt, maxClicks: maxClicks, name: name, data: data,
            targets: targets, variants: variants,
            version: 1, createdAt: Date(), updatedAt: Date(), sortMicros: 0)
    }

    /// What is wrong with a link that has (or not) an app, a destination and a web URL: it opens either the app's
    /// typed destination or the web URL, never both, never neither. Nil when it is right.
    static func targetProblem(app: Bool, destination: Bool, url: Bool) -> (member: String, detail: String)? {
        switch (app, destination, url) {
        case (true, true, false), (false, false, true): nil
        case (_, _, true):
            (
                "url",
                "A link opens either an app's destination (app and destination) or a web page (url), not both; send the others as null to switch."
            )
        case (true, false, false): ("destination", "'destination' is required with 'app'.")
        case (false, true, false): ("app", "'app' is required with 'destination'.")
        case (false, false, false):
            ("url", "A link opens an app's destination (app and destination) or a web page (url): send one of them.")
        }
    }

    /// Applies a `PATCH`: present fields replace, `null` clears the optional ones (`domain` and `slug` keep theirs).
    func apply(to link: inout Link) {
        if let slug { link.slug = slug }
        if present.contains(LinkFields.app.name) { link.appID = app }
        if present.contains(LinkFields.destination.name) { link.destination = destination?.json }
        if present.contains(LinkFields.url.name) { link.webURL = url }
        if present.contains(LinkFields.fallbacks.name) { link.fallbacks = fallbacks ?? .object([]) }
        if present.contains(LinkFields.skipStore.name) { link.skipStore = skipStore ?? false }
        if present.contains(LinkFields.campaign.name) { link.campaign = campaign ?? Link.Campaign() }
        if present.contains(LinkFields.tags.name) { link.tags = tags ?? [] }
        if present.contains(LinkFields.preview.name) { link.preview = preview ?? .object([]) }
        if present.contains(LinkFields.expiresAt.name) { link.expiresAt = expiresAt }
        if present.contains(LinkFields.maxClicks.name) { link.maxClicks = maxClicks }
        if present.contains(LinkFields.name.name) { link.name = name }
        if present.contains(LinkFields.data.name) { link.data = data }
        if present.contains(LinkFields.targets.name) { link.targets = targets }
        if present.contains(LinkFields.variants.name) { link.variants = variants }
    }

    /// The nested object `name` of text `fields` (`fallbacks`, `campaign`, `preview`), each read through its field;
    /// `null` members are left out.
    static func strings(_ body: inout JSONObjectReader, _ name: String, required: Bool, _ fields: [BodyField<String>]) -> JSONValue? {
        guard var object = body.object(name, required: required) else { return nil }
        var members: [JSONMember] = []
        for field in fields {
            if let value = field.read(&object) { members.append(JSONMember(key: field.name, value: .string(value))) }
        }
        object.finish()
        return .object(members)
    }
}
