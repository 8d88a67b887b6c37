import Foundation
import LinkKit
import Outbound

extension HealthChecker {
    /// Apple's CDN copy (`<apple-cdn-url><host>`): `current` (the AASA served now, byte for byte or as the same
    /// JSON document), `stale` (an older version: since when it has been old, and the URLs iOS decides otherwise
    /// under it than under the file served now), `unknown` (no kept version), `missing` (404: the CDN has no copy),
    /// `failing` (no answer, or another status).
    func appleResult(_ outcome: FetchOutcome, domain: Domain, entry: CatalogEntry, versions: [AssociationVersion]) throws -> CheckResult {
        guard let response = outcome.response else {
            return Self.failing(.appleCDN, url: outcome.url, reason: Self.failureReason(outcome) ?? .null)
        }
        var members = [JSONMember(key: "url", value: .string(outcome.url)), JSONMember(key: "status", value: .integer(response.status))]
        if response.status == 404 {
            return CheckResult(.appleCDN, .missing, .object(members))
        }
        guard response.status == 200 else {
            return Self.failing(
                .appleCDN, url: outcome.url, reason: FetchOutcome.reason("status", "Apple's CDN answered \(response.status)"))
        }
        let etag = ETag.strong(of: response.body)
        var match = VersionMatch(etag: etag, current: entry.aasa.etag, versions: versions, file: \.aasaETag)
        if match == .unknown, let fetched = try? JSONValue.parse(bytes: response.body),
            let served = try? JSONValue.parse(bytes: entry.aasa.bytes), Self.canonical(fetched) == Self.canonical(served)
        {
            // The CDN may write the same document otherwise: what iOS reads is what linkd serves.
            match = .current(version: versions.last(where: { $0.aasaETag == entry.aasa.etag })?.number)
        }
        members += [
            JSONMember(key: "etag", value: .string(etag)),
            JSONMember(key: "lastModified", value: response.lastModified.map { .string($0) } ?? .null),
            JSONMember(key: "age", value: response.age.map { .string($0) } ?? .null),
        ]
        members += match.members
        if case .stale(let number, _, _) = match {
            members += try moved(since: number, domain: domain, entry: entry)
        }
        return CheckResult(.appleCDN, match.state, .object(members))
    }

    /// The URLs iOS decides otherwise under version `number` than under `entry` (the file served now), over the
    /// corpus the diff uses (`AssociationMoves`): `moved` (at most `movedListLimit`), `movedCount`, `corpus`, and
    /// `recompiled` (whether the version, recompiled with today's apps, gives back its stored AASA).
    func moved(since number: Int, domain: Domain, entry: CatalogEntry) throws -> [JSONMember] {
        // The connection is held for the reads only: deciding the corpus is CPU work.
        let read = try pool.withConnection { connection -> (AssociationVersionFiles, CatalogEntry, AssociationMoves)? in
            guard let version = try AssociationVersionStore.find(domain: domain.id, number: number, on: connection) else { return nil }
            let apps = try DomainLoader.workspaceApps(domain.workspaceID, on: connection).apps
            let old = CatalogLoader.entry(of: version, domain: domain, apps: apps)
            return (version, old, try AssociationMoves(domain: domain, entries: [old, entry], on: connection))
        }
        guard let (version, old, moves) = read else { return [] }
        let moved = moves.moved(from: old, to: entry).filter { $0["ios"]?["changed"] == .bool(true) }
        return [
            JSONMember(key: "moved", value: .array(Array(moved.prefix(Self.movedListLimit)))),
            JSONMember(key: "movedCount", value: .integer(moved.count)),
            JSONMember(key: "corpus", value: moves.json),
            JSONMember(key: "recompiled", value: .bool(old.aasa.etag == version.version.aasaETag)),
        ]
    }
}
