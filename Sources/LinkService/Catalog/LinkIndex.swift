import Foundation
import Observability
import Postgres
import Synchronization

/// Every stored link in memory, compactly, so that a click on a link the `LinkCache` does not keep is answered
/// without the database (docs/LINKS.md, "Serving links"): one `LinkSegment` per domain, read at start in one
/// streamed binary `COPY` on a thread of its own (the server is ready before; until a domain's segment is in, its
/// links are read as before), within `budget` bytes: a domain that does not fit is not held, and its links are read
/// from the database as before.
///
/// Coherence, with the change feed: a link created, changed or deleted is announced by its slug
/// (`linkd_link_slugs`, `ChangeSet.linksChanged`): from then on its segment no longer answers for that slug (the
/// `LinkCache` reads it from the database). A change announced for a whole domain (a bulk write, an import) takes
/// the domain's segment out and reads the domain again; so does a domain whose changed slugs grow past a part of its
/// links. Each change is numbered: a segment read from a `COPY` begun after a change has it, so the change is
/// forgotten when the segment is installed; a change numbered after the read began is kept. When the change feed
/// reconnects (changes may have been missed), every segment is dropped and all are read again.
final class LinkIndex: BackgroundService {
    let name = "link index"
    static let threads = 1

    enum Lookup {
        case found(ServedLink)
        case absent
        /// Not held here: ask the database.
        case unknown
    }

    private struct State {
        var segments: [UUID: LinkSegment] = [:]
        var bytes = 0
        /// Numbers every change.
        var sequence: UInt64 = 0
        /// Slugs changed since their domain's segment was read, with the change's number.
        var changed: [UUID: [String: UInt64]] = [:]
        /// When each domain last changed whole.
        var domainChanged: [UUID: UInt64] = [:]
        /// Domains to read again.
        var stale: Set<UUID> = []
        /// When everything was dropped last (nil: never loaded yet).
        var dropped: UInt64? = nil
        /// Domains that did not fit the budget: not read again until everything is.
        var unfit: Set<UUID> = []
    }

    /// Bytes the segments may hold (0: none is held).
    let budget: Int
    private let pool: ConnectionPool
    private let logger: Logger
    private let state = Mutex(State())
    private let thread = ServiceThread(name: "linkd.links.index")
    private let seed = UInt64.random(in: .min ... .max)

    init(pool: ConnectionPool, budget: Int, logger: Logger) {
        self.pool = pool
        self.budget = budget
        self.logger = logger
    }

    /// The link `slug` of the domain `domain`, as held here.
    func lookup(_ slug: String, domain: UUID) -> Lookup {
        let segment = state.withLock { state -> LinkSegment? in
            guard let segment = state.segments[domain], state.changed[domain]?[slug] == nil else { return nil }
            return segment
        }
        guard let segment else { return .unknown }
        switch segment.find(slug) {
        case .link(let link): return .found(link)
        case .absent: return .absent
        case .database: return .unknown
        }
    }

    /// The link `slug` of the domain `domain` was created, changed or deleted: no longer answered here.
    func linkChanged(domain: UUID, slug: String) {
        let readAgain = state.withLock { state -> Bool in
            guard !state.unfit.contains(domain) else { return false }
            state.sequence += 1
            state.changed[domain, default: [:]][slug] = state.sequence
            guard let segment = state.segments[domain], !state.stale.contains(domain) else {
                // A domain not held gets a segment once it has some changes (its first links, created one by one).
                guard state.segments[domain] == nil, state.dropped != nil,
                    state.changed[domain]!.count >= Self.changesBeforeReading
                else { return false }
                return state.stale.insert(domain).inserted
            }
            guard state.changed[domain]!.count >= Self.changesBeforeReading + segment.count / 8 else { return false }
            return state.stale.insert(domain).inserted
        }
        if readAgain { thread.wake() }
    }

    /// Slugs of a domain changed one by one before its links are read again.
    static let changesBeforeReading = 64

    /// The links of the domain `domain` changed, which ones unknown (a bulk write): its segment is dropped and the
    /// domain read again.
    func domainChanged(_ domain: UUID) {
        state.withLock { state in
            state.sequence += 1
            state.domainChanged[domain] = state.sequence
            if let segment = state.segments.removeValue(forKey: domain) { state.bytes -= segment.bytes }
            state.unfit.remove(domain)
            state.stale.insert(domain)
        }
        thread.wake()
    }

    /// Changes may have been missed (the change feed reconnected): every segment is dropped, all are read again.
    func dropAll() {
        state.withLock { state in
            state.sequence += 1
            state.dropped = state.sequence
            state.segments = [:]
            state.bytes = 0
            state.changed = [:]
            state.domainChanged = [:]
            state.stale = []
            state.unfit = []
        }
        thread.wake()
    }

    /// Links held, and the bytes their segments hold.
    var held: (links: Int, bytes: Int) {
        state.withLock { state in (state.segments.values.reduce(0) { $0 + $1.count }, state.bytes) }
    }

    /// Whether every domain that fits has been read since the last `dropAll` (or the start) and none waits to be read again.
    var isCurrent: Bool { state.withLock { $0.dropped != nil && $0.stale.isEmpty } }

    func start() throws {
        guard budget > 0 else { return }
        thread.start { [self] in
            var loadedAll: UInt64? = nil
            while !thread.isStopping {
                let (all, domains) = state.withLock { state -> (Bool, [UUID]) in
                    (loadedAll == nil || state.dropped != loadedAll, Array(state.stale))
                }
                if all {
                    if let mark = loadAll() { loadedAll = mark } else if thread.sleep(until: .now() + .seconds(1)) { break }
                } else if !domains.isEmpty {
                    if !load(domains), thread.sleep(until: .now() + .seconds(1)) { break }
                } else if thread.sleep(until: .distantFuture) {
                    break
                }
            }
        }
    }

    func shutdown() {
        thread.stop()
    }

    var isHealthy: Bool { true }

    /// Reads every link; returns the `dropped` mark it stands for, or nil when the database could not be read.
    private func loadAll() -> UInt64? {
        let mark = state.withLock { state -> UInt64 in
            state.sequence += 1
            if state.dropped == nil { state.dropped = 0 }
            return state.sequence
        }
        let started = ContinuousClock.now
        guard let (builders, unfit) = read(domains: nil, budget: budget) else { return nil }
        let installed = state.withLock { state -> Int in
            guard (state.dropped ?? 0) < mark else { return 0 }
            state.unfit.formUnion(unfit)
            var count = 0
            for (domain, builder) in builders where (state.domainChanged[domain] ?? 0) < mark {
                let segment = builder.build()
                if let old = state.segments.updateValue(segment, forKey: domain) { state.bytes -= old.bytes }
                state.bytes += segment.bytes
                state.changed[domain] = state.changed[domain]?.filter { $0.value > mark }
                count += segment.count
            }
            for domain in unfit { state.changed[domain] = nil }
            state.stale = state.stale.filter { (state.domainChanged[$0] ?? 0) > mark }
            state.dropped = mark
            return count
        }
        logger.info(
            "link index read",
            metadata: [
                "links.held": "\(installed)", "links.bytes": "\(held.bytes)", "links.unfit_domains": "\(unfit.count)",
                "duration_ms": "\(Int((ContinuousClock.now - started) / .milliseconds(1)))",
            ])
        return mark
    }

    /// Reads the links of `domains` again; false when the database could not be read.
    private func load(_ domains: [UUID]) -> Bool {
        let (mark, held) = state.withLock { state -> (UInt64, Int) in
            state.sequence += 1
            return (state.sequence, state.bytes - domains.reduce(0) { $0 + (state.segments[$1]?.bytes ?? 0) })
        }
        guard let (builders, unfit) = read(domains: domains, budget: budget - held) else { return false }
        state.withLock { state in
            for domain in domains where (state.domainChanged[domain] ?? 0) < mark && (state.dropped ?? 0) < mark {
                state.stale.remove(domain)
                if let old = state.segments.removeValue(forKey: domain) { state.bytes -= old.bytes }
                if unfit.contains(domain) {
                    state.unfit.insert(domain)
                    continue
                }
                // A domain without links has no rows: an empty segment answers "absent" for it.
                let segment = (builders[domain] ?? LinkSegment.Builder(seed: seed)).build()
                guard state.bytes + segment.bytes <= budget else {
                    state.unfit.insert(domain)
                    continue
                }
                state.segments[domain] = segment
                state.bytes += segment.bytes
                state.changed[domain] = state.changed[domain]?.filter { $0.value > mark }
            }
        }
        return true
    }

    /// Streams the links of `domains` (nil: all) into one builder per domain, within `budget` bytes: a domain whose
    /// row would pass it is left out whole. Nil when the database could not be read.
    private func read(domains: [UUID]?, budget: Int) -> (builders: [UUID: LinkSegment.Builder], unfit: Set<UUID>)? {
        var builders: [UUID: LinkSegment.Builder] = [:]
        var sizes: [UUID: Int] = [:]
        var unfit: Set<UUID> = []
        var total = 0
        do {
            try pool.withConnection { connection in
                try LinkStore.copyServed(domains: domains, on: connection) { row in
                    guard let domain = row.uuid(0), !unfit.contains(domain) else { return }
                    var builder = builders.removeValue(forKey: domain) ?? LinkSegment.Builder(seed: seed)
                    guard builder.add(row) else {
                        unfit.insert(domain)
                        total -= sizes.removeValue(forKey: domain) ?? 0
                        return
                    }
                    // (The size is counted again every 256 links of a domain: it grows in chunks.)
                    if builder.count % 256 == 1 {
                        let size = builder.bytes
                        total += size - (sizes[domain] ?? 0)
                        sizes[domain] = size
                        if total > budget {
                            unfit.insert(domain)
                            total -= sizes.removeValue(forKey: domain) ?? 0
                            return
                        }
                    }
                    builders[domain] = builder
                }
            }
        } catch {
            logger.warning("cannot read the links into memory", metadata: ["error": "\(error)"])
            return nil
        }
        // Counted whole at the end: domains that pass the budget now are left out, largest first.
        total = 0
        for (domain, builder) in builders {
            sizes[domain] = builder.bytes
            total += builder.bytes
        }
        for (domain, size) in sizes.sorted(by: { $0.value > $1.value }) where total > budget {
            builders[domain] = nil
            unfit.insert(domain)
            total -= size
        }
        return (builders, unfit)
    }
}
