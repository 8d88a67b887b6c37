import Foundation
import LinkKit
import Observability
import Postgres
import Synchronization

/// Counts the taps of links on this node, for two readers:
///
/// - every link's taps are added to `links.clicks` every `interval` (what `sort=clicks` orders by), so every node
///   reads what the others counted. A link with a click limit (`maxClicks`) has it held against the count read
///   with it plus this node's taps since, which are kept for those links only: other nodes' taps of the last
///   interval are not seen yet (docs/LINKS.md).
/// - links of workspaces subscribed to `link.clicked` (docs/WEBHOOKS.md, "Events"): a link's taps over
///   `clickEvents.interval` are coalesced into one event, and a node queues at most `clickEvents.limit` events an
///   interval (the links tapped most; the others' taps wait for the next interval, so none is lost), so a viral
///   link or a flood of links cannot flood a receiver or the outbox. Which workspaces subscribe is read every few
///   seconds; a tap of any other workspace costs one atomic load.
final class LinkClickCounter: SingleThreadService {
    let name = "link click counter"

    /// How taps become `link.clicked` events.
    struct ClickEvents: Sendable {
        /// Seconds over which a link's taps are coalesced.
        var interval = 60
        /// Events queued at most an interval.
        var limit = 100
    }

    /// A link's taps not yet told, since `from`.
    private struct Clicks {
        let workspace: UUID
        let hostname: String
        let slug: String
        var count: Int64
        let from: Date
    }

    private struct State {
        /// This node's taps of each counted link since start.
        var taps: [UUID: Int64] = [:]
        /// Taps not yet written.
        var pending: [UUID: Int64] = [:]
        /// Taps of subscribed workspaces' links not yet queued as `link.clicked`.
        var clicked: [UUID: Clicks] = [:]
        /// The workspaces subscribed to `link.clicked`.
        var subscribers: Set<UUID> = []
        /// When events were last queued and the subscribers last read.
        var eventsAt = ContinuousClock.now
        var subscribersReadAt = ContinuousClock.now - .seconds(3600)
    }

    private let state = Mutex(State())
    /// Whether any workspace is subscribed to `link.clicked` (read on every tap without the lock).
    private let anySubscriber = Atomic<Bool>(false)
    private let pool: ConnectionPool
    private let logger: Logger
    private let interval: DispatchTimeInterval
    private let clickEvents: ClickEvents
    let thread = ServiceThread(name: "linkd.link-clicks")
    /// Rung after `link.clicked` events were queued (wakes this node's webhook delivery).
    private let outbox: WebhookOutboxBell

    init(
        pool: ConnectionPool, logger: Logger, outbox: WebhookOutboxBell, interval: DispatchTimeInterval = .seconds(1),
        clickEvents: ClickEvents = ClickEvents()
    ) {
        self.pool = pool
        self.logger = logger
        self.interval = interval
        self.clickEvents = clickEvents
        self.outbox = outbox
    }

    func start() {
        thread.start(every: interval) { [self] isLast in
            flush()
            let (events, subscribers) = state.withLock { state in
                let now = ContinuousClock.now
                let due = (now - state.eventsAt >= .seconds(clickEvents.interval), now - state.subscribersReadAt >= .seconds(5))
                if due.0 { state.eventsAt = now }
                if due.1 { state.subscribersReadAt = now }
                return due
            }
            if isLast || events { queueClickEvents() }
            if subscribers { readSubscribers() }
        }
    }

    func shutdown() {
        thread.stop {
            flush()
            queueClickEvents()
        }
    }

    /// A tap of `link` (`hostname/slug`) of `workspace`, made by a person (not a bot): counted for `link.clicked`
    /// when the workspace subscribes to it.
    func clicked(_ link: UUID, hostname: String, slug: String, workspace: UUID) {
        guard anySubscriber.load(ordering: .relaxed) else { return }
        state.withLock { state in
            guard state.subscribers.contains(workspace) else { return }
            if state.clicked[link] == nil {
                state.clicked[link] = Clicks(workspace: workspace, hostname: hostname, slug: slug, count: 0, from: Date())
            }
            state.clicked[link]!.count += 1
        }
    }

    /// Reads which workspaces subscribe to `link.clicked`; their links' taps count from then.
    func readSubscribers() {
        do {
            let subscribers = try pool.withConnection { try WebhookStore.clickSubscribers(on: $0) }
            state.withLock { state in
                state.subscribers = subscribers
                state.clicked = state.clicked.filter { subscribers.contains($0.value.workspace) }
            }
            anySubscriber.store(!subscribers.isEmpty, ordering: .relaxed)
        } catch {
            logger.warning("cannot read the link.clicked subscribers", metadata: ["error": "\(error)"])
        }
    }

    /// Queues one `link.clicked` event per tapped link, for the `limit` links tapped most; the other links keep
    /// their taps for the next interval, as do all when the database cannot take them.
    func queueClickEvents() {
        let now = Date()
        let taken = state.withLock { state in
            defer { state.clicked = [:] }
            return state.clicked
        }
        guard !taken.isEmpty else { return }
        let ranked = taken.sorted {
            $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key.uuidString < $1.key.uuidString
        }
        let sent = ranked.prefix(clickEvents.limit)
        let events = sent.map { id, clicks in
            WebhookEvent(
                .linkClicked, workspace: clicks.workspace,
                data: .object([
                    "link": .object([
                        "id": .uuid(id), "domain": .string(clicks.hostname), "slug": .string(clicks.slug),
                        "shortLink": .string("https://\(clicks.hostname)/\(clicks.slug)"),
                    ]),
                    "clicks": .integer(Int(clicks.count)), "from": .timestamp(clicks.from), "to": .timestamp(now),
                ]), time: now)
        }
        var kept = Dictionary(uniqueKeysWithValues: ranked.dropFirst(clickEvents.limit).map { ($0.key, $0.value) })
        do {
            try pool.withConnection { try WebhookStore.enqueue(events, on: $0) }
            outbox.ring()
        } catch {
            kept = taken
            logger.warning("cannot queue link.clicked events", metadata: ["error": "\(error)", "links.count": "\(events.count)"])
        }
        guard !kept.isEmpty else { return }
        state.withLock { state in
            state.clicked.merge(kept) { waiting, new in
                Clicks(
                    workspace: waiting.workspace, hostname: waiting.hostname, slug: waiting.slug, count: waiting.count + new.count,
                    from: waiting.from)
            }
        }
    }

    /// A tap of the link `id` was served; `limited`: the link has a click limit, held against this node's taps.
    func tapped(_ id: UUID, limited: Bool) {
        state.withLock { state in
            if limited { state.taps[id, default: 0] += 1 }
            state.pending[id, default: 0] += 1
        }
    }

    /// This node's taps of `id` that were written before now (a link read now counts them in its `clicks`), and all
    /// of them.
    func taps(of id: UUID) -> (written: Int64, all: Int64) {
        state.withLock { state in
            let all = state.taps[id] ?? 0
            return (all - (state.pending[id] ?? 0), all)
        }
    }

    /// Writes the pending taps; kept for the next pass when the database cannot take them.
    func flush() {
        let batch = state.withLock { state in
            defer { state.pending = [:] }
            return state.pending
        }
        guard !batch.isEmpty else { return }
        do {
            try pool.withConnection { try LinkStore.addClicks(batch, on: $0) }
        } catch {
            state.withLock { state in state.pending.merge(batch, uniquingKeysWith: +) }
            logger.warning("cannot count link taps", metadata: ["error": "\(error)", "links.count": "\(batch.count)"])
        }
    }
}
