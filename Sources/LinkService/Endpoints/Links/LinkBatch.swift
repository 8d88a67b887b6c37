import Foundation
import HTTPServer
import LinkKit
import Postgres

/// The write path of `POST /v1/links/bulk` and `POST /v1/links/import`: many links checked in memory against the
/// workspace's `LinkTargets` (read once), written in one transaction with `COPY` (`LinkBatchStore`), each item
/// created or refused on its own. A slug given twice in the batch or already taken on its domain refuses its item
/// (409 at `/N/slug`); a generated slug that is taken is drawn again, up to `LinkHandlers.slugAttempts` times.
/// Every domain that gains links is announced once (`ChangeSet.linksChanged`), and the request is audited once.
struct LinkBatch {
    /// How bulk writes borrow from the pool: one at a time on a node (another is refused at once, 503, while it
    /// runs), each statement allowed minutes rather than the 2 s of other requests (`databaseRequestTimeout`):
    /// copying and inserting 100,000 links takes seconds.
    static let waits = BoundedWaits(timeout: .seconds(300), maxBorrowers: 1)

    /// What became of one item, in the order of the items.
    enum Outcome {
        case created(Link)
        case refused(Problem)
    }

    let changes: CatalogChanges

    /// Reads the items with `read` (given the workspace's targets) and writes the links among them, in one
    /// transaction; with `dryRun` the transaction is rolled back, so the answer says what would happen and nothing
    /// is saved. `audit` names the request in the audit log (`bulk`, `import`).
    /// `acknowledgeMoves`: whether the request accepts links that move what apps open (`LinkPlaces.acknowledgeMoves`).
    func run(
        _ principal: Principal, dryRun: Bool, acknowledgeMoves: Bool, audit: String,
        _ read: (LinkTargets) throws -> [LinkItem]
    ) throws -> [Outcome] {
        do {
            return try write(principal, dryRun: dryRun, acknowledgeMoves: acknowledgeMoves, audit: audit, read)
        } catch let error as PostgresError where error.code == .poolTimeout {
            throw Problem.serviceUnavailable(
                detail: "Another bulk request or import is being written on this node; retry when it is done.",
                retryAfter: 5)
        }
    }

    private func write(
        _ principal: Principal, dryRun: Bool, acknowledgeMoves: Bool, audit: String,
        _ read: (LinkTargets) throws -> [LinkItem]
    ) throws -> [Outcome] {
        guard !dryRun else {
            do {
                try changes.pool.withTransaction { connection in
                    let targets = try LinkTargets.load(workspace: principal.workspaceID, on: connection)
                    var places = try self.places(targets, acknowledgeMoves: acknowledgeMoves, on: connection)
                    throw RolledBack(
                        outcomes: try Self.write(read(targets), workspace: principal.workspaceID, places: &places, on: connection))
                }
            } catch let rolledBack as RolledBack {
                return rolledBack.outcomes
            }
            return []
        }
        return try changes.commit { connection, changed in
            let targets = try LinkTargets.load(workspace: principal.workspaceID, on: connection)
            var places = try self.places(targets, acknowledgeMoves: acknowledgeMoves, on: connection)
            let outcomes = try Self.write(read(targets), workspace: principal.workspaceID, places: &places, on: connection)
            var domains: [UUID: String] = [:]
            var created = 0
            for case .created(let link) in outcomes {
                created += 1
                domains[link.domainID] = link.hostname
            }
            for (id, hostname) in domains.sorted(by: { $0.value < $1.value }) {
                try changed.linksChanged(domain: id, hostname: hostname, slug: nil, on: connection)
            }
            let createdLinks = outcomes.lazy.compactMap { outcome -> Link? in if case .created(let link) = outcome { link } else { nil } }
            if created > 0 {
                try changed.bulkCreated(
                    workspace: principal.workspaceID, on: connection,
                    summary: {
                        Self.summary(createdLinks, created: created, refused: outcomes.count - created, source: audit)
                    }, createdLinks.map(\.json))
                for link in createdLinks where link.variants != nil || link.targets?.contains(where: { $0.variants != nil }) == true {
                    try LinkExperimentEvents.queue(before: nil, after: link, workspace: principal.workspaceID, changed, on: connection)
                }
            }
            try AuditStore.record(
                on: connection, principal, .create, type: Link.auditType, id: audit,
                after: .object([
                    "created": .integer(created), "refused": .integer(outcomes.count - created),
                    "domains": .array(domains.values.sorted().map(JSONValue.string)),
                ]))
            return outcomes
        }
    }

    /// The `links.bulk_created` event's data (docs/WEBHOOKS.md, "Bulk writes"): the counts, each domain's, and the
    /// first links.
    private static func summary(_ links: some Sequence<Link>, created: Int, refused: Int, source: String) -> JSONValue {
        var domains: [String: Int] = [:]
        var listed: [JSONValue] = []
        var createdAt: Date?
        for link in links {
            domains[link.hostname, default: 0] += 1
            createdAt = createdAt ?? link.createdAt
            if listed.count < WebhookEventType.bulkSummaryLinks {
                listed.append(
                    .object([
                        "id": .uuid(link.id), "domain": .string(link.hostname), "slug": .string(link.slug),
                        "shortLink": .string(link.shortLink),
                    ]))
            }
        }
        return .object([
            "source": .string(source),
            "created": .integer(created),
            "refused": .integer(refused),
            "createdAt": createdAt.map(JSONValue.timestamp) ?? .null,
            "domains": .array(
                domains.sorted { $0.key < $1.key }.map { .object(["domain": .string($0.key), "created": .integer($0.value)]) }),
            "links": .array(listed),
            "truncated": .bool(created > listed.count),
        ])
    }

    /// Where the workspace's links may stand, with the apps its domains' links open now.
    private func places(_ targets: LinkTargets, acknowledgeMoves: Bool, on connection: Connection) throws -> LinkPlaces {
        try LinkPlaces(
            catalog: changes.reloader.catalog, domains: targets.domains.values.map(\.id), platforms: targets.platforms,
            acknowledgeMoves: acknowledgeMoves, on: connection)
    }

    /// The answer of a dry run, carried out of the transaction it rolls back.
    private struct RolledBack: Error {
        let outcomes: [Outcome]
    }

    /// Inserts the drafts among `items`; each item's outcome, in order.
    /// Each draft must stand where it is (`LinkPlaces`): 422 otherwise, and a generated slug a rule decides is drawn again.
    static func write(_ items: [LinkItem], workspace: UUID, places: inout LinkPlaces, on connection: Connection) throws -> [Outcome] {
        var outcomes: [Outcome?] = Array(repeating: nil, count: items.count)
        var drafts: [Link] = []
        var draftItems: [Int] = [] // the item of each draft
        var generate: [Int?] = [] // the length of each draft's generated slug; nil: given
        var pointers: [String] = []
        var taken: Set<SlugKey> = [] // the slugs of the batch
        let ids = OrderedIDs(count: items.count)
        // Given slugs first, so that a generated one never takes a slug an item names.
        for (index, item) in items.enumerated() {
            switch item {
            case .refused(let problem):
                outcomes[index] = .refused(problem)
            case .draft(let link, nil, let pointer):
                let key = SlugKey(domain: link.domainID, slug: link.slug)
                if taken.contains(key) {
                    outcomes[index] = .refused(
                        Self.conflict("\(link.shortLink) is given more than once; only the first is created.", at: pointer))
                } else {
                    taken.insert(key)
                }
            case .draft:
                break
            }
        }
        for (index, item) in items.enumerated() {
            guard case .draft(let draft, let length, let pointer) = item, outcomes[index] == nil else { continue }
            var link = Self.link(draft, id: ids[index])
            if let length { link.slug = Self.freeSlug(length: length, domain: link.domainID, &taken) }
            var problem = try places.problem(link, on: connection)
            for _ in 1..<LinkHandlers.slugAttempts where length != nil && problem?.member == "slug" {
                link.slug = Self.freeSlug(length: length!, domain: link.domainID, &taken)
                problem = try places.problem(link, on: connection)
            }
            if let problem {
                outcomes[index] = .refused(problem.problem(under: pointer))
                continue
            }
            drafts.append(link)
            draftItems.append(index)
            generate.append(length)
            pointers.append(pointer)
        }
        guard !drafts.isEmpty else { return outcomes.map { $0! } }
        try LinkBatchStore.prepare(on: connection)
        let now = try LinkBatchStore.now(on: connection)
        var pending = Array(drafts.indices)
        for attempt in 0..<LinkHandlers.slugAttempts where !pending.isEmpty {
            let inserted = try LinkBatchStore.insert(pending.lazy.map { drafts[$0] }, workspace: workspace, on: connection)
            var retry: [Int] = []
            for draft in pending {
                var link = drafts[draft]
                if inserted.contains(link.id) {
                    outcomes[draftItems[draft]] = .created(Self.link(link, id: link.id, createdAt: now.date, micros: now.micros))
                } else if generate[draft] == nil {
                    outcomes[draftItems[draft]] = .refused(Self.conflict("\(link.shortLink) already exists.", at: pointers[draft]))
                } else if attempt + 1 < LinkHandlers.slugAttempts {
                    link.slug = Self.freeSlug(length: link.slug.count, domain: link.domainID, &taken)
                    drafts[draft] = link
                    retry.append(draft)
                } else {
                    outcomes[draftItems[draft]] = .refused(
                        Self.conflict(
                            "No free slug of \(link.slug.count) characters was found on \(link.hostname); try again, or raise the domain's linkSlugLength.",
                            at: pointers[draft]))
                }
            }
            pending = retry
        }
        return outcomes.map { $0! }
    }

    /// A slug of `length` characters that no item of the batch has on `domain`, kept as taken.
    private static func freeSlug(length: Int, domain: UUID, _ taken: inout Set<SlugKey>) -> String {
        while true {
            let slug = LinkSlug.random(length: length)
            if taken.insert(SlugKey(domain: domain, slug: slug)).inserted { return slug }
        }
    }

    /// `link` with `id`, and as created at `createdAt` (`micros` since 1970) when given.
    private static func link(_ link: Link, id: UUID, createdAt: Date? = nil, micros: Int64 = 0) -> Link {
        Link(
            id: id, domainID: link.domainID, hostname: link.hostname, slug: link.slug, appID: link.appID, destination: link.destination,
            webURL: link.webURL, fallbacks: link.fallbacks, skipStore: link.skipStore, campaign: link.campaign, tags: link.tags,
            preview: link.preview,
            expiresAt: link.expiresAt, maxClicks: link.maxClicks, name: link.name, data: link.data,
            targets: link.targets, variants: link.variants, version: 1,
            createdAt: createdAt ?? link.createdAt, updatedAt: createdAt ?? link.updatedAt, sortMicros: micros)
    }

    /// A 409 for the item at `pointer`, pointing at its slug.
    static func conflict(_ detail: String, at pointer: String) -> Problem {
        var problem = Problem.conflict(detail: detail)
        problem.errors = [Problem.FieldError(pointer: pointer + "/slug", detail: detail)]
        return problem
    }

    private struct SlugKey: Hashable {
        let domain: UUID
        let slug: String
    }
}
