import Foundation
import Postgres
import Synchronization

/// The stored links resolve and clicks answer (docs/LINKS.md, "Serving links"): kept in memory, at most
/// `capacity` of them (found or known absent), whatever the number of links; a link not kept is answered by the
/// `LinkIndex` (every link, compactly, within its budget) when it holds it, else read with one indexed query
/// (`LinkStore.served(slug:domain:on:)`), under the pool's bounded waits. Only what the database answered is kept
/// here: what the index answers costs no query to answer again.
///
/// Coherence: a change to a domain's links (`ChangeSet.linksChanged`, heard on `linkd_links` by every node) drops
/// what is kept of that domain; a read that began before a drop is not kept (`epoch`). While the database cannot
/// be read, kept links keep serving and the others answer as if absent (the domain's own behaviour), not kept.
final class LinkCache: Sendable {
    enum Lookup {
        case found(ServedLink)
        case absent
        /// The database could not be asked.
        case unavailable
    }

    private struct Key: Hashable {
        let domain: UUID
        let slug: String
    }

    private struct State {
        /// By domain, then slug; nil: known absent.
        var links: [UUID: [String: ServedLink?]] = [:]
        var count = 0
        /// Insertion order, a ring that grows to `capacity` slots as links are kept: the oldest kept is evicted first.
        var order: [Key] = []
        var next = 0
        /// Advances at every drop: a read begun before it is not kept.
        var epoch: UInt64 = 0
    }

    let capacity: Int
    /// This node's taps of links with a click limit.
    let taps: LinkClickCounter
    /// Every link compactly (nil: none).
    let index: LinkIndex?
    private let pool: ConnectionPool
    private let state: Mutex<State>

    /// - Parameter capacity: links kept at most (0: none; every ask reads the database).
    init(pool: ConnectionPool, capacity: Int, taps: LinkClickCounter, index: LinkIndex? = nil) {
        self.pool = pool
        self.index = index
        self.capacity = capacity
        self.taps = taps
        state = Mutex(State())
    }

    /// The link `slug` of the domain `domain`.
    /// - Throws: `PostgresError` `.mustNotWait` when the link is not kept and this thread may not wait on the
    ///   database (an HTTP worker: the request is handed to a thread that may, `Handoff`); no other error.
    func link(_ slug: String, domain: UUID) throws(PostgresError) -> Lookup {
        let key = Key(domain: domain, slug: slug)
        let (kept, epoch) = state.withLock { state in (state.links[domain]?[slug], state.epoch) }
        if let kept { return kept.map(Lookup.found) ?? .absent }
        switch index?.lookup(slug, domain: domain) {
        case .found(let link): return .found(link)
        case .absent: return .absent
        case .unknown, nil: break
        }
        let link: ServedLink?
        do {
            link = try pool.withConnection { connection in
                try LinkStore.served(slug: slug, domain: domain, on: connection).map { found in
                    ServedLink(found, tapsWritten: taps.taps(of: found.id).written)
                }
            }
        } catch let error as PostgresError where error.code == .mustNotWait {
            throw error
        } catch {
            return .unavailable
        }
        keep(link, at: key, readAt: epoch)
        return link.map(Lookup.found) ?? .absent
    }

    private func keep(_ link: ServedLink?, at key: Key, readAt epoch: UInt64) {
        guard capacity > 0 else { return }
        state.withLock { state in
            guard state.epoch == epoch, state.links[key.domain]?[key.slug] == nil else { return }
            if state.order.count < capacity {
                state.order.append(key)
            } else {
                let evicted = state.order[state.next]
                if state.links[evicted.domain]?.removeValue(forKey: evicted.slug) != nil {
                    state.count -= 1
                    if state.links[evicted.domain]?.isEmpty == true { state.links[evicted.domain] = nil }
                }
                state.order[state.next] = key
                state.next = (state.next + 1) % capacity
            }
            state.links[key.domain, default: [:]][key.slug] = .some(link)
            state.count += 1
        }
    }

    /// The link `slug` of the domain `domain` changed: the index no longer answers it (before the domain's links
    /// kept here are dropped, so a read that saw the index before is not kept).
    func linkChanged(domain: UUID, slug: String) {
        index?.linkChanged(domain: domain, slug: slug)
    }

    /// Links of the domain `domain` changed, which ones unknown: the index reads them again.
    func domainChanged(_ domain: UUID) {
        index?.domainChanged(domain)
    }

    /// Forgets what is kept of the domain `domain`'s links (they changed).
    func drop(domain: UUID) {
        state.withLock { state in
            state.epoch &+= 1
            state.count -= state.links.removeValue(forKey: domain)?.count ?? 0
        }
    }

    /// Forgets every kept link (the change feed reconnected: changes may have been missed).
    func dropAll() {
        index?.dropAll()
        state.withLock { state in
            state.epoch &+= 1
            state.links = [:]
            state.count = 0
        }
    }

    /// Links (and absences) kept.
    var count: Int { state.withLock { $0.count } }
}
