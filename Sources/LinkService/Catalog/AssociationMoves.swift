import Foundation
import LinkKit
import Postgres

/// The URLs whose decision a change of a domain's rules, settings or apps moves (docs/HEALTH.md, "Versions and
/// diffs"): over a corpus of the domain's URLs, what iOS and Android decide under each of two compilations
/// (`URLDecision`, with the matcher resolve uses: `CatalogEntry.resolve`), and every URL where either platform's
/// outcome, app or destination differs.
///
/// The corpus, in this order and without repeats, bounded by `corpusLimit`: every rule's example URLs under either
/// compilation (`RouterFixtures.examplePaths`), the URLs hit most in the last `hitDays` days (at most `hitLimit`),
/// and the domain's oldest `linkLimit` stored links.
struct AssociationMoves {
    static let corpusLimit = 20_000
    static let hitLimit = 2_000
    static let hitDays = 7
    static let linkLimit = 10_000

    private(set) var corpus: [AASAURL] = []
    /// URLs from each source (after repeats were dropped), and whether a bound left some out.
    private(set) var counts = (examples: 0, hits: 0, links: 0)
    private(set) var cut = false
    /// The stored links at their slugs.
    let links: [String: (app: UUID?, type: String?)]

    /// Reads the corpus of `domain` for comparing `entries` (the compilations whose rules give example URLs).
    init(domain: Domain, entries: [CatalogEntry], on connection: Connection) throws {
        let host = Hostname.servingHost(of: domain.hostname)
        let stored = try LinkStore.placements(domain: domain.id, limit: Self.linkLimit + 1, on: connection)
        links = Dictionary(
            stored.prefix(Self.linkLimit).map { ($0.slug, (app: $0.app, type: $0.type)) }, uniquingKeysWith: { first, _ in first })
        let hits = try AnalyticsStore.recentURLs(
            workspace: domain.workspaceID, hostname: domain.hostname, days: Self.hitDays,
            limit: Self.hitLimit + 1, on: connection)
        cut = stored.count > Self.linkLimit || hits.count > Self.hitLimit
        var seen: Set<String> = []
        func add(_ url: AASAURL?) -> Bool {
            guard let url else { return false }
            guard corpus.count < Self.corpusLimit else {
                cut = true
                return false
            }
            guard seen.insert(url.text).inserted else { return false }
            corpus.append(url)
            return true
        }
        for entry in entries {
            for path in RouterFixtures.examplePaths(entry.compiled) where add(try? AASAURL("https://" + host + path)) {
                counts.examples += 1
            }
        }
        for hit in hits.prefix(Self.hitLimit) where add(AASAURL(https: hit.host, path: hit.path, query: hit.query)) { counts.hits += 1 }
        for link in stored.prefix(Self.linkLimit) where add(AASAURL(https: host, path: "/" + link.slug, query: nil)) { counts.links += 1 }
    }

    /// How many URLs of the corpus of `after`'s domain change decision from `before` to `after`; 0 when the domain
    /// is gone.
    static func count(from before: CatalogEntry, to after: CatalogEntry, on connection: Connection) throws -> Int {
        guard let domain = try DomainStore.all(hostnames: [after.hostname], on: connection).first else { return 0 }
        return try AssociationMoves(domain: domain, entries: [before, after], on: connection).moved(from: before, to: after).count
    }

    /// `{url, ios: {from, to}, android: {from, to}}` for each URL of the corpus whose decision differs on either
    /// platform between `old` and `new`, in corpus order.
    func moved(from old: CatalogEntry, to new: CatalogEntry) -> [JSONValue] {
        corpus.compactMap { url in
            let platforms = [AppPlatform.ios, .android].map { platform in
                (
                    platform, URLDecision(old, url: url, platform: platform, links: links),
                    URLDecision(new, url: url, platform: platform, links: links)
                )
            }
            guard platforms.contains(where: { $0.1 != $0.2 }) else { return nil }
            return .object(
                [JSONMember(key: "url", value: .string(url.text))]
                    + platforms.map { platform, before, after in
                        JSONMember(
                            key: platform.rawValue,
                            value: .object([
                                JSONMember(key: "from", value: before.json), JSONMember(key: "to", value: after.json),
                                JSONMember(key: "changed", value: .bool(before != after)),
                            ]))
                    })
        }
    }

    /// `{size, cut, examples, hits, links}`.
    var json: JSONValue {
        .object([
            JSONMember(key: "size", value: .integer(corpus.count)),
            JSONMember(key: "cut", value: .bool(cut)),
            JSONMember(key: "examples", value: .integer(counts.examples)),
            JSONMember(key: "hits", value: .integer(counts.hits)),
            JSONMember(key: "links", value: .integer(counts.links)),
        ])
    }
}
