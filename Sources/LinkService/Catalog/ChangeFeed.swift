import Foundation
import Observability
import Postgres

/// Keeps this node's in-memory state coherent with the database and with other nodes: one
/// `LISTEN` connection for `linkd_catalog` (a domain to rebuild), `linkd_keys` (a key revoked), `linkd_sessions` (a
/// person's sessions ended or changed: `SessionCache`), `linkd_link_slugs` (a link changed: the `LinkIndex` no
/// longer answers it) and `linkd_links` (a domain's links changed: what `LinkCache` keeps of them is dropped).
///
/// At start the catalog is loaded whole. When the listener loses the database, the last good catalog
/// keeps serving and cached keys keep serving as they are (`CacheTrust`); when it reconnects, the
/// cached keys are re-validated on the new connection before the first notification is handled, and the
/// catalog is reloaded, since notifications sent meanwhile were lost. Reconnection attempts back off to at
/// most `maximumBackoff` apart, which bounds how long after the database returns a key revoked on
/// another node during the outage can still serve here.
final class ChangeFeed: BackgroundService {
    let name = "change feed"
    /// The listener's thread and the reloader's queue.
    static let threads = 2
    private let reloader: CatalogReloader
    private let keys: KeyCache
    private let listener: NotificationListener

    init(
        parameters: ConnectionParameters, reloader: CatalogReloader, keys: KeyCache, sessions: SessionCache? = nil, links: LinkCache? = nil,
        logger: Logger, maximumBackoff: Duration = .seconds(1)
    ) {
        self.reloader = reloader
        self.keys = keys
        listener = NotificationListener(
            parameters: parameters,
            channels: [
                CatalogChanges.channel, KeyCache.channel, SessionCache.channel, CatalogChanges.linkSlugsChannel,
                CatalogChanges.linksChannel,
            ], logger: logger,
            maximumBackoff: maximumBackoff,
            onNotification: { notification in
                switch notification.channel {
                case KeyCache.channel:
                    if let id = UUID(uuidString: notification.payload) { keys.invalidate(id) }
                case SessionCache.channel:
                    if let person = UUID(uuidString: notification.payload) { sessions?.invalidate(person: person) }
                case CatalogChanges.linkSlugsChannel:
                    guard !reloader.own.isOwn(notification), let change = CatalogChanges.linkChange(notification.payload) else { return }
                    if let slug = change.slug {
                        links?.linkChanged(domain: change.domain, slug: slug)
                    } else {
                        links?.domainChanged(change.domain)
                    }
                    // (An answer kept since the domain's `linkd_links`, read from the index before this, is dropped.)
                    reloader.catalog.linksChanged()
                case CatalogChanges.linksChannel:
                    // A write's own node dropped them before answering: dropping again would only lose what it
                    // has read since (kept links that serve through an outage).
                    guard !reloader.own.isOwn(notification) else { return }
                    if let id = UUID(uuidString: notification.payload) { links?.drop(domain: id) }
                    reloader.catalog.linksChanged()
                default:
                    // This node's own writes installed their changes before answering.
                    if !reloader.own.isOwn(notification) { reloader.reloadSoon(notification.payload) }
                }
            },
            onReconnect: {
                links?.dropAll()
                reloader.own.forget()
                reloader.reloadAllSoon()
            },
            onConnect: { connection in
                keys.revalidate(on: connection, logger: logger)
                sessions?.revalidate()
            },
            onDisconnect: {
                keys.hold()
                sessions?.hold()
            }
        )
    }

    /// Starts listening and waits (up to `connectTimeout`) until `LISTEN` is in place, then loads the whole
    /// catalog (before the server reports ready): in this order no change committed in between is missed.
    /// - Throws: `PostgresError` when the database cannot be read.
    func start() throws {
        try start(connectTimeout: .seconds(10))
    }

    func start(connectTimeout: Duration) throws {
        listener.start()
        _ = listener.waitUntilConnected(timeout: connectTimeout)
        do {
            try reloader.reloadAll()
        } catch {
            listener.shutdown()
            throw error
        }
    }

    /// Stops listening and waits for a reload in progress. Idempotent.
    func shutdown() {
        listener.shutdown()
        reloader.drain()
    }

    /// Whether changes made on other nodes are being heard.
    var isListening: Bool { listener.isConnected }

    var isHealthy: Bool { isListening }
}
