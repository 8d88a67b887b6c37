import Foundation
import Observability
import Postgres

/// Keeps every change of a domain's served association files as a numbered version (`AssociationVersionStore`,
/// docs/HEALTH.md, "Versions and diffs").
///
/// - A write records in its own transaction (`CatalogChanges.commit`, before COMMIT): the changed domains are locked
///   (`serialise`), the domains the write did not compile itself are compiled from what the transaction sees then
///   (and those compilations are what the node installs after COMMIT: still one compilation a change), and each
///   domain whose files differ from its latest version gets the next number, with the write's audit entry.
///   Committed with the change or not at all. Everything a domain's files are made of is read under that lock: a
///   rules change, which compiles its own, takes it before it reads the apps (`RuleHandlers`), so two writes of one
///   domain record in the order they commit, each with what the other committed before it.
/// - A full catalog load reconciles (`CatalogReloader`): a domain whose loaded files differ from the latest version
///   read in the same snapshot gets a version with no audit entry ("found"), off the load's path, unless a version
///   was recorded since that snapshot (a newer write's, which the load did not see).
struct AssociationVersionRecorder: Sendable {
    /// Versions kept per domain (the latest always among them).
    let keep: Int

    /// Holds the numbering of the domains `hostnames` until the transaction ends (`AssociationVersionStore.lock`).
    static func serialise(_ hostnames: [String], on connection: Connection) throws {
        try AssociationVersionStore.lock(hostnames: hostnames, on: connection)
    }

    /// A version recorded by a write: the domain's entry now and its number.
    struct Recorded {
        let entry: CatalogEntry
        let number: Int
    }

    /// Records the changed `hostnames` in the writing transaction; returns the entries it compiled, by hostname,
    /// and the versions it recorded.
    func record(
        _ hostnames: [String], compiled: [String: CatalogEntry], on connection: Connection,
        counter: CompilationCounter?
    ) throws -> (compiled: [String: CatalogEntry], recorded: [Recorded]) {
        guard !hostnames.isEmpty else { return ([:], []) }
        try Self.serialise(hostnames, on: connection)
        let toLoad = hostnames.filter { compiled[$0] == nil }
        let loaded = toLoad.isEmpty ? [] : try CatalogLoader.load(hostnames: toLoad, on: connection, counter: counter, snapshot: false)
        let entries = loaded + hostnames.compactMap { compiled[$0] }
        let latest = try AssociationVersionStore.latest(domains: entries.map(\.domainID), on: connection)
        var recorded: [Recorded] = []
        for entry in entries where Self.differs(entry, latest[entry.domainID]) {
            let number = (latest[entry.domainID]?.number ?? 0) + 1
            try AssociationVersionStore.insert(Self.new(entry), number: number, keep: keep, on: connection)
            recorded.append(Recorded(entry: entry, number: number))
        }
        return (Dictionary(loaded.map { ($0.hostname, $0) }, uniquingKeysWith: { _, last in last }), recorded)
    }

    /// Records, for each of `entries` (a full load) whose files differ from its version in `latest` (read in the
    /// load's snapshot), a version found at start, unless the domain has had a version recorded since. Returns the
    /// number recorded.
    func reconcile(_ entries: [CatalogEntry], latest: [UUID: AssociationVersionStore.Latest], pool: ConnectionPool) throws -> Int {
        let found = entries.filter { Self.differs($0, latest[$0.domainID]) }
        var recorded = 0
        var start = 0
        while start < found.count {
            let chunk = found[start..<min(start + Self.chunk, found.count)]
            start += Self.chunk
            recorded += try pool.withTransaction { connection in
                try AssociationVersionStore.lock(hostnames: chunk.map(\.hostname), on: connection)
                let now = try AssociationVersionStore.latest(domains: chunk.map(\.domainID), on: connection)
                var count = 0
                for entry in chunk where now[entry.domainID]?.number == latest[entry.domainID]?.number {
                    try AssociationVersionStore.insert(
                        Self.new(entry), number: (now[entry.domainID]?.number ?? 0) + 1, keep: keep, on: connection)
                    count += 1
                }
                return count
            }
        }
        return recorded
    }

    /// Domains recorded per transaction when reconciling.
    static let chunk = 200

    static func differs(_ entry: CatalogEntry, _ latest: AssociationVersionStore.Latest?) -> Bool {
        latest?.aasaETag != entry.aasa.etag || latest?.assetLinksETag != entry.assetLinks.etag
    }

    static func new(_ entry: CatalogEntry) -> AssociationVersionStore.New {
        AssociationVersionStore.New(
            domainID: entry.domainID, aasa: entry.aasa.bytes, aasaETag: entry.aasa.etag,
            assetLinks: entry.assetLinks.bytes, assetLinksETag: entry.assetLinks.etag, linkSpace: entry.links.json)
    }
}
