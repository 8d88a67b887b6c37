import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/links`: the links of a workspace (issue 29), each `https://<domain>/<slug>` opening a typed destination of an
/// app or a web URL. Stored and edited here; resolve and clicks serve them
/// from the catalog's `LinkCache` (docs/LINKS.md, "Serving links").
struct LinkHandlers: EndpointGroup {
    /// How many generated slugs a create tries before it gives up (409): a clash is rare at any sensible length.
    static let slugAttempts = 5

    let pool: ConnectionPool
    let changes: CatalogChanges

    private var resource: ResourceEndpoints { ResourceEndpoints(changes: changes) }

    static let domain = QueryParameter("domain", Schema.hostname, "Only links on this domain (its hostname).")
    static let tag = QueryParameter("tag", Schema.string(maxLength: TextLimit.tag.scalars), "Only links with this tag.")
    static let campaign = QueryParameter(
        "campaign", Schema.string(maxLength: TextLimit.campaign.scalars),
        "Only links whose campaign (`campaign.campaign`, utm_campaign) holds this text (case-insensitive: `spring` finds `Spring24` and `mail-spring`)."
    )
    static let destinationType = QueryParameter(
        "destinationType", Schema.string(maxLength: TextLimit.name.scalars),
        "Only links to a destination of this type.")
    static let search = QueryParameter(
        "q", Schema.string(maxLength: TextLimit.name.scalars),
        "Only links whose slug or name holds this text (case-insensitive).")

    static let sort = QueryParameter(
        "sort", .enumeration(LinkOrder.allCases.map(\.rawValue)),
        """
        The order: `created` (oldest first, the default), `slug` (byte order) or `clicks` (the taps counted so far, \
        `clicks`); `-` before it reverses it. Ties go by id, so the cursor of `next` is stable; a link tapped or renamed \
        between two pages may move across them.
        """)

    static var schemas: [(name: String, schema: Schema)] { APISchemas.links }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .POST, "/v1/links", "createLink", "Create a link", tag: "Links", scope: .write,
                description: """
                    A link on a domain of the workspace opens an app's typed destination (`app` and `destination`, checked as \
                    `POST /v1/links/build` checks them) or a web page (`url`). Without `slug`, one is generated (409 when \
                    the given slug is taken on the domain). A `url` or fallback that leads back to the link, itself or \
                    through other links or link domains, is a 422 at that member (docs/LINKS.md). A link to a web page on a \
                    domain whose links open an app, or a first link to an app on a domain holding links to web pages, is a 422 \
                    (a phone with the app would open the app, not the page). A link that makes the domain's link space open \
                    another app, moving URLs a rule keeps from it (an exclusion Android cannot keep), is a 409 \
                    (`link-space-moves`) listing each move in `errors`, unless `acknowledgeMoves=true`.
                    """,
                query: [LinkPlaces.acknowledgeMoves], body: "LinkCreate", success: .created("Link"), errors: [409], create),
            Endpoint(
                .GET, "/v1/links", "listLinks", "List links", tag: "Links", scope: .read,
                description: "The first page (no `cursor`) carries `total`, how many links the filters keep.",
                query: Self.filters + [Self.sort], success: .page("Link"), list),
            Endpoint(.GET, "/v1/links/{id}", "getLink", "Read a link", tag: "Links", scope: .read, success: .resource("Link"), get),
            Endpoint(
                .PATCH, "/v1/links/{id}", "updateLink", "Change a link", tag: "Links", scope: .write,
                description: """
                    Present members replace, `null` clears an optional one; the others stay. Checked as a create is: a change \
                    that moves what apps open is a 409 listing the moves, unless `acknowledgeMoves=true`.
                    """,
                query: [LinkPlaces.acknowledgeMoves], ifMatch: true, body: "LinkUpdate", success: .resource("Link"), errors: [409], update),
            Endpoint(
                .DELETE, "/v1/links/{id}", "deleteLink", "Delete a link", tag: "Links", scope: .write,
                ifMatch: true, success: .noContent, delete),
        ]
    }

    func create(_ request: Request, _ principal: Principal) throws -> Response {
        let input = try JSONBody.read(request) { LinkInput(reading: &$0, creating: true) }
        let acknowledged = try LinkPlaces.acknowledged(request)
        return try resource.create(principal, location: { location("getLink", [.id: $0.id.canonicalText]) }) { connection, changed in
            let domain = try Self.domain(input.domain!, principal, on: connection)
            if let appID = input.app, let destination = input.destination {
                try Self.check(app: appID, destination, principal, on: connection)
            }
            for (app, destination) in LinkTargeting.destinations(targets: input.targets, variants: input.variants) {
                try Self.check(app: app, destination, principal, on: connection)
            }
            var link = input.newLink(on: domain)
            var places = try self.places(
                domain: domain.id, workspace: principal.workspaceID, acknowledgeMoves: acknowledged, on: connection)
            if input.slug != nil {
                try Self.check(places.problem(link, on: connection))
                guard let created = try LinkStore.insert(link, workspace: principal.workspaceID, on: connection) else {
                    throw ServiceError.conflict("\(link.shortLink) already exists.")
                }
                try Self.changed(created, .linkCreated, principal, changed, on: connection)
                return created
            }
            for _ in 0..<Self.slugAttempts {
                link.slug = LinkSlug.random(length: domain.settings.linkSlugLength)
                if let problem = try places.problem(link, on: connection) {
                    if problem.member == "slug" { continue } // a rule decides that one: draw again
                    try Self.check(problem)
                }
                if let created = try LinkStore.insert(link, workspace: principal.workspaceID, on: connection) {
                    try Self.changed(created, .linkCreated, principal, changed, on: connection)
                    return created
                }
            }
            throw ServiceError.conflict(
                "No free slug of \(domain.settings.linkSlugLength) characters was found on \(domain.hostname); try again, or raise the domain's linkSlugLength."
            )
        }
    }

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        let filter = try Self.filter(request)
        let order = try Self.order(request)
        let page = try Page(request, keyed: true)
        let (links, total) = try pool.withConnection { connection in
            (
                try LinkStore.page(page, workspace: principal.workspaceID, filter: filter, order: order, on: connection),
                page.position == nil ? try LinkStore.count(workspace: principal.workspaceID, filter: filter, on: connection) : nil
            )
        }
        return page.response(request, keyed: links.map { ($0.json, order.key(of: $0), $0.id) }, total: total)
    }

    /// The order `sort` asks (`created` when absent).
    static func order(_ request: Request) throws -> LinkOrder {
        try sort.value(in: request).flatMap(LinkOrder.init(rawValue:)) ?? .default
    }

    /// The list's filters (`filters`) as `request` gives them.
    static func filter(_ request: Request) throws -> LinkStore.Filter {
        LinkStore.Filter(
            hostname: try domain.value(in: request).map { (try? Hostname($0))?.rawValue ?? $0 },
            tag: try tag.value(in: request), campaign: try campaign.value(in: request),
            destinationType: try destinationType.value(in: request), search: try search.value(in: request))
    }

    /// The query parameters that narrow a list (and an export).
    static var filters: [QueryParameter] { [domain, tag, campaign, destinationType, search] }

    func get(_ request: Request, _ principal: Principal) throws -> Response {
        try resource.get { try find(request, principal, on: $0) }
    }

    func update(_ request: Request, _ principal: Principal) throws -> Response {
        let input = try JSONBody.read(request) { LinkInput(reading: &$0, creating: false) }
        let acknowledged = try LinkPlaces.acknowledged(request)
        return try resource.update(
            request, principal, find: { try find(request, principal, on: $0, forUpdate: true) },
            check: { before, connection in try change(before, input, principal, acknowledged, on: connection) }
        ) { before, after, connection, changed in
            try changed.linksChanged(domain: before.domainID, hostname: before.hostname, slug: before.slug, on: connection)
            let saved = try LinkStore.save(after, on: connection)
            try Self.changed(saved, .linkUpdated, principal, changed, before: before, on: connection)
            return saved
        }
    }

    func delete(_ request: Request, _ principal: Principal) throws -> Response {
        try resource.delete(request, principal, find: { try find(request, principal, on: $0, forUpdate: true) }) {
            link, connection, changed in
            try LinkStore.delete(link.id, on: connection)
            try Self.changed(link, .linkDeleted, principal, changed, on: connection)
        }
    }

    /// The link's domain forgets what it kept of its links, and `event` is queued with the link as the API shows it.
    /// `before`: the link before an update. The experiments a create, change or delete starts or stops are told too.
    static func changed(
        _ link: Link, _ event: WebhookEventType, _ principal: Principal, _ changed: ChangeSet, before: Link? = nil,
        on connection: Connection
    ) throws {
        try changed.linksChanged(domain: link.domainID, hostname: link.hostname, slug: link.slug, on: connection)
        try changed.event(event, workspace: principal.workspaceID, on: connection) { link.json }
        let (old, new): (Link?, Link?) = event == .linkDeleted ? (link, nil) : (event == .linkCreated ? nil : before, link)
        try LinkExperimentEvents.queue(before: old, after: new, workspace: principal.workspaceID, changed, on: connection)
    }

    /// `before` with the `PATCH` applied, checked as a create is (422, or 409 for a slug taken on the domain).
    private func change(
        _ before: Link, _ input: LinkInput, _ principal: Principal, _ acknowledged: Bool,
        on connection: Connection
    ) throws -> Link {
        var after = before
        input.apply(to: &after)
        if let hostname = input.domain, hostname != before.hostname {
            let domain = try Self.domain(hostname, principal, on: connection)
            after.domainID = domain.id
            after.hostname = domain.hostname
        }
        if let problem = LinkInput.targetProblem(app: after.appID != nil, destination: after.destination != nil, url: after.webURL != nil) {
            throw ServiceError.validation([.init(pointer: "/" + problem.member, detail: problem.detail)])
        }
        if let appID = after.appID, let destination = after.destination,
            after.appID != before.appID || after.destination != before.destination
        {
            try Self.check(app: appID, input.destination ?? DestinationInput(stored: destination), principal, on: connection)
        }
        if after.targets != before.targets || after.variants != before.variants {
            for (app, destination) in LinkTargeting.destinations(targets: after.targets, variants: after.variants) {
                try Self.check(app: app, destination, principal, on: connection)
            }
        }
        let moved = after.slug != before.slug || after.domainID != before.domainID
        if moved || after.appID != before.appID || after.destination != before.destination || after.webURL != before.webURL
            || after.fallbacks != before.fallbacks || after.targets != before.targets || after.variants != before.variants
        {
            var places = try places(
                domain: after.domainID, workspace: principal.workspaceID, acknowledgeMoves: acknowledged, on: connection)
            try Self.check(places.problem(after, previous: after.domainID == before.domainID ? before : nil, on: connection))
        }
        if moved, try LinkStore.slugTaken(after.slug, domain: after.domainID, excluding: after.id, on: connection) {
            throw ServiceError.conflict("\(after.shortLink) already exists.")
        }
        return after
    }

    /// The domain of the caller's workspace named `hostname`; 422 at `/domain` otherwise.
    private static func domain(_ hostname: String, _ principal: Principal, on connection: Connection) throws -> Domain {
        guard let domain = try DomainStore.find(hostname, of: principal.workspaceID, on: connection) else {
            throw ServiceError.validation([.init(pointer: "/domain", detail: "\(hostname) is not a link domain of this workspace.")])
        }
        return domain
    }

    /// Where links of the domain `domain` may stand (`LinkPlaces`), for a link to an app of `workspace`.
    private func places(domain: UUID, workspace: UUID, acknowledgeMoves: Bool, on connection: Connection) throws -> LinkPlaces {
        let apps = try AppStore.all(workspace: workspace, on: connection)
        return try LinkPlaces(
            catalog: changes.reloader.catalog, domains: [domain],
            platforms: Dictionary(apps.map { ($0.id, $0.platform) }, uniquingKeysWith: { first, _ in first }),
            acknowledgeMoves: acknowledgeMoves, on: connection)
    }

    /// 422 at the link's member (409 for moves) when it cannot stand where it is.
    private static func check(_ refusal: LinkPlaces.Refusal?) throws {
        guard let refusal else { return }
        throw refusal.problem(under: "")
    }

    /// 422 unless `app` is an app of the caller's workspace with the destination's type, and the parameters are what
    /// the type declares (`DestinationInput.check`, as `POST /v1/links/build` checks them).
    private static func check(app: UUID, _ destination: DestinationInput, _ principal: Principal, on connection: Connection) throws {
        guard try AppStore.find(app, of: principal.workspaceID, on: connection) != nil else {
            throw ServiceError.validation([
                .init(pointer: destination.appPointer, detail: "There is no app \(app.canonicalText) in this workspace.")
            ])
        }
        let type = destination.type ?? ""
        guard let declared = try DestinationStore.find(type, of: app, on: connection) else {
            throw ServiceError.validation([.init(pointer: destination.typePointer, detail: "The app has no destination type '\(type)'.")])
        }
        let errors = FieldErrors()
        _ = destination.check(against: declared.type, errors)
        try errors.check()
    }

    /// The link named by the path, in the caller's workspace only; 404 otherwise.
    private func find(_ request: Request, _ principal: Principal, on connection: Connection, forUpdate: Bool = false) throws -> Link {
        let text = request.pathParameter(.id)
        guard let id = UUID(uuidString: text),
            let link = try LinkStore.find(id, of: principal.workspaceID, forUpdate: forUpdate, on: connection)
        else {
            throw ServiceError.notFound("The link '\(text)'")
        }
        return link
    }
}
