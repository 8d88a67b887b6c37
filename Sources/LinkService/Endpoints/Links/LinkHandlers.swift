import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/links`: the links of a workspace (issue 29), each `https://<domain>/<slug>` opening a typed destination of an
/// app or a web URL. Stored and edited here; serving them comes later.
struct LinkHandlers: EndpointGroup {
    /// How many generated slugs a create tries before it gives up (409): a clash is rare at any sensible length.
    static let slugAttempts = 5

    let pool: ConnectionPool
    let auth: Authenticator
    let changes: CatalogChanges

    private var resource: ResourceEndpoints { ResourceEndpoints(changes: changes) }

    private static let domain = QueryParameter("domain", Schema.hostname, "Only links on this domain (its hostname).")
    private static let tag = QueryParameter("tag", Schema.string(maxLength: TextLimit.tag.scalars), "Only links with this tag.")
    private static let campaign = QueryParameter("campaign", Schema.string(maxLength: TextLimit.campaign.scalars), "Only links of this campaign (`campaign.campaign`, utm_campaign).")
    private static let destinationType = QueryParameter("destinationType", Schema.string(maxLength: TextLimit.name.scalars),
                                                        "Only links to a destination of this type.")
    private static let search = QueryParameter("q", Schema.string(maxLength: TextLimit.name.scalars),
                                               "Only links whose slug or name holds this text (case-insensitive).")

    static var schemas: [(name: String, schema: Schema)] { APISchemas.links }

    var endpoints: [Endpoint] {
        [
            Endpoint(.POST, "/v1/links", "createLink", "Create a link", tag: "Links", scope: .write,
                     description: """
                        A link on a domain of the workspace opens an app's typed destination (`app` and `destination`, checked as \
                        `POST /v1/links/build` checks them) or a web page (`url`). Without `slug`, one is generated (409 when \
                        the given slug is taken on the domain).
                        """,
                     body: "LinkCreate", success: .created("Link"), errors: [409], create),
            Endpoint(.GET, "/v1/links", "listLinks", "List links", tag: "Links", scope: .read,
                     query: [Self.domain, Self.tag, Self.campaign, Self.destinationType, Self.search], success: .page("Link"), list),
            Endpoint(.GET, "/v1/links/{id}", "getLink", "Read a link", tag: "Links", scope: .read, success: .resource("Link"), get),
            Endpoint(.PATCH, "/v1/links/{id}", "updateLink", "Change a link", tag: "Links", scope: .write,
                     description: "Present members replace, `null` clears an optional one; the others stay.",
                     ifMatch: true, body: "LinkUpdate", success: .resource("Link"), errors: [409], update),
            Endpoint(.DELETE, "/v1/links/{id}", "deleteLink", "Delete a link", tag: "Links", scope: .write,
                     ifMatch: true, success: .noContent, delete),
        ]
    }

    func create(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        let input = LinkInput(reading: &body, creating: true)
        body.finish()
        try errors.check()
        return try resource.create(principal) { connection, changed in
            let domain = try Self.domain(input.domain!, principal, on: connection)
            var app: App?
            if let appID = input.app, let destination = input.destination {
                app = try Self.check(app: appID, destination, principal, on: connection)
            }
            var link = Link(id: UUID(), domainID: domain.id, hostname: domain.hostname, slug: input.slug ?? "", appID: input.app,
                            destination: input.destination?.json, webURL: input.url, fallbacks: input.fallbacks ?? .object([]),
                            campaign: input.campaign ?? Link.Campaign(), tags: input.tags ?? [], preview: input.preview ?? .object([]),
                            expiresAt: input.expiresAt, maxClicks: input.maxClicks, name: input.name, data: input.data,
                            version: 1, createdAt: Date(), updatedAt: Date(), sortMicros: 0)
            try Self.checkPlace(of: link, app: app, on: connection)
            if input.slug != nil {
                try checkRules(link, app: app)
                guard let created = try LinkStore.insert(link, workspace: principal.workspaceID, on: connection) else {
                    throw ServiceError.conflict("\(link.shortLink) already exists.")
                }
                try changed.linksChanged(domain: domain.id, hostname: domain.hostname, on: connection)
                return created
            }
            for _ in 0..<Self.slugAttempts {
                link.slug = LinkSlug.random(length: domain.settings.linkSlugLength)
                if (try? checkRules(link, app: app)) == nil { continue }
                if let created = try LinkStore.insert(link, workspace: principal.workspaceID, on: connection) {
                    try changed.linksChanged(domain: domain.id, hostname: domain.hostname, on: connection)
                    return created
                }
            }
            throw ServiceError.conflict("No free slug of \(domain.settings.linkSlugLength) characters was found on \(domain.hostname); try again, or raise the domain's linkSlugLength.")
        }
    }

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        try resource.list(request) { page, connection in
            let filter = LinkStore.Filter(
                hostname: try Self.domain.value(in: request).map { (try? Hostname($0))?.rawValue ?? $0 },
                tag: try Self.tag.value(in: request), campaign: try Self.campaign.value(in: request),
                destinationType: try Self.destinationType.value(in: request), search: try Self.search.value(in: request))
            return try LinkStore.page(page, workspace: principal.workspaceID, filter: filter, on: connection)
        }
    }

    func get(_ request: Request, _ principal: Principal) throws -> Response {
        try resource.get { try find(request, principal, on: $0) }
    }

    func update(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        let input = LinkInput(reading: &body, creating: false)
        body.finish()
        try errors.check()
        return try resource.update(request, principal, find: { try find(request, principal, on: $0, forUpdate: true) },
                                    check: { before, connection in try change(before, input, principal, on: connection) }) { before, after, connection, changed in
            try changed.linksChanged(domain: before.domainID, hostname: before.hostname, on: connection)
            try changed.linksChanged(domain: after.domainID, hostname: after.hostname, on: connection)
            return try LinkStore.save(after, on: connection)
        }
    }

    func delete(_ request: Request, _ principal: Principal) throws -> Response {
        try resource.delete(request, principal, find: { try find(request, principal, on: $0, forUpdate: true) }) { link, connection, changed in
            try LinkStore.delete(link.id, on: connection)
            try changed.linksChanged(domain: link.domainID, hostname: link.hostname, on: connection)
        }
    }

    /// `before` with the `PATCH` applied, checked as a create is (422, or 409 for a slug taken on the domain).
    private func change(_ before: Link, _ input: LinkInput, _ principal: Principal, on connection: Connection) throws -> Link {
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
        var app: App?
        if let appID = after.appID, let destination = after.destination {
            app = try Self.check(app: appID, input.destination ?? DestinationInput(stored: destination), principal, on: connection)
        }
        let moved = after.slug != before.slug || after.domainID != before.domainID
        if moved || after.appID != before.appID || after.destination != before.destination || after.webURL != before.webURL {
            try Self.checkPlace(of: after, app: app, on: connection)
            try checkRules(after, app: app)
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

    /// 422 unless a domain's links open one app a platform: iOS opens the first app of the file's entries whatever
    /// the link, so a second app of the same platform could never be opened by its links (docs/LINKS.md).
    private static func checkPlace(of link: Link, app: App?, on connection: Connection) throws {
        guard let app else { return }
        guard let other = try LinkStore.otherApps(of: app.platform, than: app.id, domain: link.domainID, on: connection).first else { return }
        throw ServiceError.validation([.init(pointer: "/app", detail: """
            The links on \(link.hostname) open the \(app.platform.rawValue) app \(other.canonicalText); a domain's links open one app \
            a platform, since iOS and Android open the first app the file names for the link space. Use another domain for this app's links.
            """)])
    }

    /// 422 at `/slug` when a rule of the domain decides the link's URL otherwise than the link would: an exclusion, another
    /// app of the link's app's platform, an app of the other platform without the link's destination type, or any app
    /// for a link to a web page. The rules are the catalog's, as served.
    private func checkRules(_ link: Link, app: App?) throws {
        guard let entry = changes.reloader.catalog.entry(exactly: link.hostname) else { return }
        let placement = LinkPlacement(slug: link.slug, app: app.map { ($0.id.canonicalText, $0.platform) },
                                      destinationType: link.destination?["type"]?.stringValue)
        guard let conflict = placement.conflict(host: Hostname.servingHost(of: link.hostname), ruleCount: entry.ruleIDs.count,
                                                resolve: { entry.resolve($0, platform: $1) }) else { return }
        throw ServiceError.validation([.init(pointer: "/slug", detail: """
            \(link.shortLink) is decided by rule \(conflict.position) (\(entry.ruleIDs[conflict.position].canonicalText)), which \
            \(conflict.what): the link could never open what it points at. Choose another slug, or change the rule.
            """)])
    }

    /// 422 unless `app` is an app of the caller's workspace with the destination's type, and the parameters are what
    /// the type declares (`DestinationInput.check`, as `POST /v1/links/build` checks them).
    @discardableResult
    private static func check(app: UUID, _ destination: DestinationInput, _ principal: Principal, on connection: Connection) throws -> App {
        guard let found = try AppStore.find(app, of: principal.workspaceID, on: connection) else {
            throw ServiceError.validation([.init(pointer: "/app", detail: "There is no app \(app.canonicalText) in this workspace.")])
        }
        let type = destination.type ?? ""
        guard let declared = try DestinationStore.find(type, of: app, on: connection) else {
            throw ServiceError.validation([.init(pointer: destination.typePointer, detail: "The app has no destination type '\(type)'.")])
        }
        let errors = FieldErrors()
        _ = destination.check(against: declared.type, errors)
        try errors.check()
        return found
    }

    /// The link named by the path, in the caller's workspace only; 404 otherwise.
    private func find(_ request: Request, _ principal: Principal, on connection: Connection, forUpdate: Bool = false) throws -> Link {
        let text = request.parameters["id"] ?? ""
        guard let id = UUID(uuidString: text),
              let link = try LinkStore.find(id, of: principal.workspaceID, forUpdate: forUpdate, on: connection) else {
            throw ServiceError.notFound("The link '\(text)'")
        }
        return link
    }
}
