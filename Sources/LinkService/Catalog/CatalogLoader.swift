import Foundation
import LinkKit
import Postgres
import Synchronization

/// Builds catalog entries from the database: domains, apps and destinations in three queries, then every rule
/// with its apps (`rules.app_ids`, which mirrors `rule_apps`) in one streamed binary `COPY`, ordered by workspace,
/// domain and position: one pass over the table, whatever its physical order, and no join with `rule_apps`
/// (bench/serving/README.md has the reads this replaced and what they cost).
///
/// Domains are compiled a batch at a time on all cores while the stream goes on, so only about two batches'
/// rows are alive at once. Domains of a workspace with the same settings and rules share one compilation
/// (`CompiledRules`): its files and matchers are compiled once and held once.
enum CatalogLoader {
    /// Every domain (`hostnames` nil) or the named ones.
    /// - Parameter connection: inside a transaction that has not read anything yet: every query then reads one
    ///   snapshot.
    /// - Parameter counter: counts the domains compiled.
    /// - Parameter snapshot: false inside a writing transaction that has read already (`AssociationVersionRecorder`):
    ///   the load then reads what that transaction sees, its own writes included.
    static func load(
        hostnames: [String]? = nil, on connection: Connection, counter: CompilationCounter? = nil,
        snapshot: Bool = true
    ) throws -> [CatalogEntry] {
        if snapshot { try connection.executeScript("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY") }
        let domains = try DomainStore.all(hostnames: hostnames, on: connection)
        guard !domains.isEmpty else { return [] }
        // A few named domains (a write's) are compiled on the caller's thread: handing them to the global queue costs a
        // wait for a thread when its threads are busy, inside the write's transaction.
        let compiler = Compiler(
            context: try context(for: domains, on: connection), counter: counter,
            inline: hostnames != nil && domains.count <= inlineLimit)
        // (Positions, not copies of the domains: a load holds this map throughout.)
        let byID = Dictionary(domains.indices.map { (domains[$0].id, $0) }, uniquingKeysWith: { first, _ in first })
        var seen: Set<UUID> = []
        var batch: [DomainRules] = []
        var current: DomainRules?
        func finish() {
            guard let done = current else { return }
            batch.append(done)
            current = nil
            if batch.count == batchSize {
                compiler.submit(batch)
                batch = []
            }
        }
        try RuleStore.copyOut(domains: hostnames == nil ? nil : domains.map(\.id), on: connection) { row in
            guard let domainID = row.uuid(0), let ruleID = row.uuid(1) else { return }
            if current?.domain.id != domainID {
                finish()
                // (The snapshot has every rule's domain; a rule of another one would be skipped.)
                guard let index = byID[domainID], seen.insert(domainID).inserted else { return }
                current = DomainRules(domain: domains[index])
            }
            current?.add(ruleID, row)
        }
        finish()
        for domain in domains where !seen.contains(domain.id) {
            current = DomainRules(domain: domain)
            finish()
        }
        if !batch.isEmpty { compiler.submit(batch) }
        return compiler.finish()
    }

    /// Domains compiled per batch: enough for both cores, few enough that the rows of the two batches alive (one
    /// compiling, one being read) stay a small part of the catalog's memory.
    static let batchSize = 64
    /// Named domains up to which a load compiles on the caller's thread.
    static let inlineLimit = 8

    /// The apps (with destination types) of the domains' workspaces, and when each app last changed.
    private static func context(for domains: [Domain], on connection: Connection) throws -> Context {
        let workspaces = Array(Set(domains.map { $0.workspaceID.canonicalText }))
        let apps = try AppStore.all(ofWorkspaces: workspaces, on: connection)
        let destinations = try DestinationStore.all(ofWorkspaces: workspaces, on: connection)
        let destinationsByApp = Dictionary(grouping: destinations, by: \.appID)
        var appsByWorkspace: [UUID: [DomainApp]] = [:]
        var appUpdated: [UUID: Date] = [:]
        for (app, workspace) in apps {
            let own = destinationsByApp[app.id] ?? []
            appsByWorkspace[workspace, default: []].append(DomainLoader.domainApp(app, destinations: own))
            appUpdated[app.id] = DomainLoader.updated(app, destinations: own)
        }
        // (A load of many domains reads the whole small table rather than a long list of ids.)
        let links = try LinkStore.spaces(domains: domains.count > batchSize ? nil : domains.map(\.id), on: connection)
        return Context(appsByWorkspace: appsByWorkspace, appUpdated: appUpdated, links: links)
    }

    struct Context: Sendable {
        let appsByWorkspace: [UUID: [DomainApp]]
        let appUpdated: [UUID: Date]
        /// The link space of each domain that has links.
        let links: [UUID: LinkSpace]
    }

    /// One domain's rules as stored: ids, definitions (JSON bytes) and apps, in order.
    struct DomainRules: Sendable {
        let domain: Domain
        var ids: [UUID] = []
        var rules = CompiledRules.StoredRules()
        var updatedAt: Date

        init(domain: Domain) {
            self.domain = domain
            updatedAt = domain.updatedAt
        }

        /// Adds a rule row (`domain_id, id, definition, updated_at, app_ids`).
        mutating func add(_ ruleID: UUID, _ row: CopyRow) {
            ids.append(ruleID)
            // (`json`'s binary form is its text.) A definition that is not JSON decodes as an empty rule, as
            // `StoredRule` reads it.
            rules.append(definition: row[2])
            _ = row.forEachUUID(inArray: 4) { rules.appendApp($0) }
            if let updated = row.timestamp(3), updated > updatedAt { updatedAt = updated }
        }

        /// Adds a rule from its stored definition (JSON text) and apps (an association version's snapshot).
        mutating func add(_ ruleID: UUID, definition: [UInt8], apps: [UUID]) {
            ids.append(ruleID)
            definition.withUnsafeBytes { rules.append(definition: $0) }
            for app in apps { rules.appendApp(app) }
        }

        func key(_ context: Context) -> CompiledRules.Key {
            CompiledRules.Key(
                workspaceID: domain.workspaceID, settings: domain.settings.resolved(hostname: ""), rules: rules,
                links: context.links[domain.id] ?? .none)
        }

        /// - Parameter bodies: the load's files, shared by domains whose files are identical.
        func compile(_ context: Context, bodies: CompiledRules.Bodies? = nil) -> CompiledRules {
            // Rules naming the same apps (most of a domain's) share one array of app ids. The compiled rules carry no
            // ids: the entry reports its own (`CatalogEntry.ruleIDs`), as domains sharing a compilation must.
            // (Consecutive rules usually name the same apps: compared before the map is asked.)
            var appIDs: [ArraySlice<UUID>: (uuids: [UUID], names: [String])] = [:]
            var previous: (apps: ArraySlice<UUID>, shared: (uuids: [UUID], names: [String]))?
            var clicks: [Int: RuleClick] = [:]
            var linkRules = ids.indices.map { index in
                let apps = rules.apps(index)
                let shared: (uuids: [UUID], names: [String])
                if let previous, previous.apps == apps {
                    shared = previous.shared
                } else {
                    shared = appIDs[apps] ?? (Array(apps), apps.map { $0.canonicalText })
                    appIDs[apps] = shared
                    previous = (apps, shared)
                }
                let input = StoredDefinition.definition(rules.definition(index), apps: shared.uuids)
                if let click = input.click { clicks[index] = click }
                return input.rule(id: "", appIDs: shared.names)
            }
            let apps = context.appsByWorkspace[domain.workspaceID] ?? []
            let linkSpace = (context.links[domain.id] ?? .none).rules(after: linkRules, apps: apps)
            // (Appended in place: a concatenation would copy every rule.)
            linkRules.append(contentsOf: linkSpace)
            return CompiledRules(
                CompiledDomain(settings: domain.settings.resolved(hostname: domain.hostname), apps: apps, rules: linkRules),
                clicks: clicks, linkApps: linkSpace.first?.apps ?? [], bodies: bodies)
        }

        /// Last-Modified: the latest change to anything the files are made from (same on every node).
        func lastModified(_ context: Context) -> Date {
            var used = Set(rules.apps)
            used.formUnion(domain.settings.webcredentials)
            used.formUnion((context.links[domain.id] ?? .none).apps)
            return used.compactMap { context.appUpdated[$0] }.reduce(updatedAt, max)
        }
    }

    /// Compiles submitted batches one after the other, each on all cores, while the caller reads the next.
    final class Compiler: Sendable {
        private let context: Context
        private let counter: CompilationCounter?
        private let bodies = CompiledRules.Bodies()
        private let group = DispatchGroup()
        private let entries = Mutex<[CatalogEntry]>([])
        /// Compilations of the batch in flight, for the next batch to reuse (its domains may share them).
        private let compiled = Mutex<[CompiledRules.Key: CompiledRules]>([:])
        /// Compilations of earlier batches of the workspace being read (rules arrive ordered by workspace).
        private let known = Mutex<[CompiledRules.Key: CompiledRules]>([:])

        /// Whether batches are compiled on the submitting thread, one domain after the other.
        private let inline: Bool

        private static let knownLimit = 1_000

        init(context: Context, counter: CompilationCounter? = nil, inline: Bool = false) {
            self.context = context
            self.counter = counter
            self.inline = inline
        }

        /// Queues `batch`; waits for the previous batch first, so at most two are alive. Keys, lookups and
        /// compilation run off the caller's thread, which goes back to reading rows.
        func submit(_ batch: [DomainRules]) {
            group.wait()
            let reusable = known.withLock { known in
                let fresh = compiled.withLock { compiled in
                    defer { compiled = [:] }
                    return compiled
                }
                // Kept: compilations of the batch's workspaces (the last workspace of a batch continues in the
                // next), at most `knownLimit` of them (their keys hold the rules' stored bytes).
                let workspaces = Set(batch.map(\.domain.workspaceID))
                known = known.filter { workspaces.contains($0.key.workspaceID) }
                if known.count + fresh.count > Self.knownLimit { known = [:] }
                known.merge(fresh) { first, _ in first }
                return known
            }
            let context = context
            let inline = inline
            let bodies = bodies
            let work: @Sendable () -> Void = { [self] in
                let keys = batch.map { $0.key(context) }
                let (toCompile, firstOf) = Self.toCompile(keys, reusable: reusable)
                counter?.add(toCompile.count)
                let results = Mutex<[CompiledRules?]>(Array(repeating: nil, count: batch.count))
                let compileOne: @Sendable (Int) -> Void = { job in
                    let index = toCompile[job]
                    let result = batch[index].compile(context, bodies: bodies)
                    results.withLock { $0[index] = result }
                }
                if inline {
                    for job in toCompile.indices { compileOne(job) }
                } else {
                    DispatchQueue.concurrentPerform(iterations: toCompile.count, execute: compileOne)
                }
                let made = results.withLock { $0 }
                let built = batch.indices.map { index in
                    let shared = reusable[keys[index]] ?? made[firstOf[keys[index]]!]!
                    return CatalogEntry(
                        domain: batch[index].domain, rules: shared, ruleIDs: batch[index].ids,
                        links: context.links[batch[index].domain.id] ?? .none, lastModified: batch[index].lastModified(context))
                }
                compiled.withLock { compiled in
                    for index in toCompile { compiled[keys[index]] = made[index] }
                }
                entries.withLock { $0 += built }
            }
            if inline { work() } else { DispatchQueue.global().async(group: group, execute: work) }
        }

        /// The positions of the keys to compile (the first of each not in `reusable`), and each such key's position.
        private static func toCompile(
            _ keys: [CompiledRules.Key], reusable: [CompiledRules.Key: CompiledRules]
        )
            -> ([Int], [CompiledRules.Key: Int])
        {
            var positions: [Int] = []
            var firstOf: [CompiledRules.Key: Int] = [:]
            for (index, key) in keys.enumerated() where reusable[key] == nil && firstOf[key] == nil {
                firstOf[key] = index
                positions.append(index)
            }
            return (positions, firstOf)
        }

        /// Waits for the last batch; every entry built.
        func finish() -> [CatalogEntry] {
            group.wait()
            return entries.withLock { $0 }
        }
    }
}
