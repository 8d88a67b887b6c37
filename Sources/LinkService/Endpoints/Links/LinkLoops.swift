import ByteText
import Foundation
import LinkKit
import Postgres

/// Whether a link's web page or a fallback leads back to the link, so that a browser would be redirected round
/// forever: the link's own address, or a chain of hops through linkd's link domains (any workspace's) that ends
/// there. Asked for each link written, by every door (`LinkPlaces.problem`: single create, `PATCH`, bulk, CSV and
/// Firebase import).
///
/// A URL is on a link domain when its host (lower-cased, without a trailing dot, on the default port; its scheme
/// http or https) is one the catalog governs. Its path is read as a browser sends it and the server compares it:
/// percent-encoded unreserved characters decoded and dot segments removed, then the slug compared exactly; the
/// query and fragment lead to the same link. From a stored link the hops are its `url` and every fallback (any
/// platform may follow one), and the domain's web fallback when it has neither `url` nor desktop fallback (where a
/// desktop goes from an app link); from a path with no link, the domain's web fallback there. At most `maxHops`
/// URLs are followed from each of the link's: a browser gives up after about 20 redirects anyway.
struct LinkLoops {
    static let maxHops = 20

    let catalog: Catalog
    /// Where the links of the current batch lead, by domain and slug: the links checked before this one, not yet
    /// stored, and the stored links already read.
    private var known: [Place: Hops?] = [:]

    init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// The first of `link`'s URLs that leads back to it, as its member (`url`, `fallbacks/desktop`) and a sentence;
    /// nil when none does. Remembers where `link` leads for the links checked after it.
    mutating func problem(_ link: Link, on connection: Connection) throws -> (member: String, detail: String)? {
        let own = Place(domain: link.domainID, slug: link.slug)
        for (member, url) in Self.targets(of: link) {
            if let through = try leadsBack(from: url, to: own, excluding: link.id, on: connection) {
                let detail =
                    through.isEmpty
                    ? "\(url) is this link's own address (\(link.shortLink)): a click would be redirected to it forever."
                    : "\(url) leads back to \(link.shortLink) through \(through.joined(separator: ", ")): a click would be redirected round forever."
                return (member, detail)
            }
        }
        known[own] = .some(Hops(link))
        return nil
    }

    /// The link's `url` and fallbacks, with their members, and those of its targets and variants (a visitor may be
    /// sent to any of them: `targets/0/url`, `targets/0/variants/1/url`, `variants/0/url`).
    static func targets(of link: Link) -> [(member: String, url: String)] {
        var targets: [(String, String)] = []
        func add(_ prefix: String, url: String?, fallbacks: JSONValue?) {
            if let url { targets.append((prefix + "url", url)) }
            for platform in ["ios", "ipad", "android", "desktop"] {
                if let url = fallbacks?[platform]?.stringValue { targets.append((prefix + "fallbacks/" + platform, url)) }
            }
        }
        add("", url: link.webURL, fallbacks: link.fallbacks)
        for (index, target) in (link.targets ?? []).enumerated() {
            add("targets/\(index)/", url: target.opening.url, fallbacks: target.opening.fallbacks)
            for (inner, variant) in (target.variants ?? []).enumerated() {
                add("targets/\(index)/variants/\(inner)/", url: variant.opening.url, fallbacks: nil)
            }
        }
        for (index, variant) in (link.variants ?? []).enumerated() { add("variants/\(index)/", url: variant.opening.url, fallbacks: nil) }
        return targets
    }

    /// The links passed through from `start` to `own` (empty: `start` is `own` itself), or nil when the hops from
    /// `start` never reach it within `maxHops`. `excluding`: the link being checked, whose stored row (before an
    /// edit) is not where it will be.
    private mutating func leadsBack(from start: String, to own: Place, excluding id: UUID, on connection: Connection) throws -> [String]? {
        var queue: [(url: String, through: [String])] = [(start, [])]
        var seen: Set<String> = []
        var next = 0
        while next < queue.count, seen.count < Self.maxHops {
            let (url, through) = queue[next]
            next += 1
            guard let (entry, address) = Self.linkDomainAddress(url, catalog: catalog), seen.insert(address.text).inserted else { continue }
            let slug = LinkSlug.candidate(path: address.path)
            if let slug, Place(domain: entry.domainID, slug: slug) == own { return through }
            var domainFallback = true
            if let slug, let hops = try hops(at: Place(domain: entry.domainID, slug: slug), excluding: id, on: connection) {
                queue += hops.urls.map { ($0, through + [address.host + "/" + slug]) }
                domainFallback = hops.toDomainFallback
            }
            if domainFallback, let fallback = Resolver.Answer.domainWebFallback(of: entry, for: address) {
                // No link there (or an app link without a desktop fallback): the domain's web fallback is where a browser goes.
                queue.append((fallback, through + [address.host + address.path]))
            }
        }
        return nil
    }

    /// Where the link at `place` leads, read once per batch; nil when there is none (or only `excluding`).
    private mutating func hops(at place: Place, excluding id: UUID, on connection: Connection) throws -> Hops? {
        if let kept = known[place] { return kept }
        let stored = try LinkStore.served(slug: place.slug, domain: place.domain, on: connection)
        let hops = stored.flatMap { $0.id == id ? nil : Hops($0) }
        known[place] = .some(hops)
        return hops
    }

    /// Where a browser may be sent from a link.
    private struct Hops {
        /// Its `url` and fallbacks.
        let urls: [String]
        /// Whether a desktop goes on to the domain's web fallback (no `url`, no desktop fallback).
        let toDomainFallback: Bool

        init(_ link: Link) {
            urls = LinkLoops.targets(of: link).map(\.url)
            toDomainFallback = link.webURL == nil && link.fallbacks["desktop"]?.stringValue == nil
        }
    }

    /// The catalog entry of the link domain `url` is on, and the URL as that domain's server reads it (path
    /// normalised: `normalisedPath`); nil for a URL on no link domain.
    static func linkDomainAddress(_ url: String, catalog: Catalog) -> (CatalogEntry, AASAURL)? {
        guard let parsed = try? AASAURL(url), parsed.isWeb, !parsed.host.isEmpty,
            parsed.port == nil || parsed.port == (parsed.scheme == "https" ? 443 : 80),
            let entry = catalog.entry(governing: parsed.host)
        else { return nil }
        return (entry, AASAURL(https: parsed.host, path: normalisedPath(parsed.path), query: parsed.query))
    }

    /// `path` as a server compares it (RFC 3986 §6.2.2): `%XX` of an unreserved character decoded (`%75` is `u`;
    /// other escapes kept), then dot segments removed (§5.2.4: `/a/../u12` is `/u12`); `/` when empty.
    static func normalisedPath(_ path: String) -> String {
        var bytes: [UInt8] = []
        let raw = Array(path.utf8)
        var index = 0
        while index < raw.count {
            if raw[index] == UInt8(ascii: "%"), index + 2 < raw.count,
                let high = Hex.value(raw[index + 1]), let low = Hex.value(raw[index + 2]), Percent.isUnreserved(high << 4 | low)
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(raw[index])
                index += 1
            }
        }
        let segments = String(decoding: bytes, as: UTF8.self).split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var kept: [Substring] = []
        for (offset, segment) in segments.enumerated() {
            guard segment == "." || segment == ".." else {
                kept.append(segment)
                continue
            }
            if segment == "..", !kept.isEmpty { kept.removeLast() }
            if offset == segments.count - 1 { kept.append("") }
        }
        return "/" + kept.joined(separator: "/")
    }

    private struct Place: Hashable {
        let domain: UUID
        let slug: String
    }
}
