import Postgres
import Synchronization

/// The catalog and link notifications this node sends and applies itself, so its `ChangeFeed` does not apply them
/// again (rebuild a domain, or drop links it has read since the write).
///
/// A notification names the backend that sent it (`PostgresNotification.processID`). Before a write commits,
/// `CatalogChanges` expects one notification per changed hostname (and per domain whose links changed) from its
/// connection's backend; the first such notification is then skipped, once. Anything else is applied: another node's notification (another backend)
/// and one of this node's that was not expected (withdrawn when the transaction failed, or forgotten when the
/// listener reconnected, after which the catalog is reloaded whole anyway).
final class OwnNotifications: Sendable {
    private struct Sent: Hashable {
        let channel: String
        let processID: Int32
        let payload: String
    }

    private let expected = Mutex<[Sent: Int]>([:])

    /// `processID` is about to commit notifications on `channel` (default: the catalog's) for `payloads`.
    func expect(_ payloads: [String], on channel: String = CatalogChanges.channel, from processID: Int32) {
        expected.withLock { expected in
            for payload in payloads { expected[Sent(channel: channel, processID: processID, payload: payload), default: 0] += 1 }
        }
    }

    /// The transaction did not commit: its notifications will not come.
    func withdraw(_ payloads: [String], on channel: String = CatalogChanges.channel, from processID: Int32) {
        expected.withLock { expected in
            for payload in payloads { Self.take(Sent(channel: channel, processID: processID, payload: payload), from: &expected) }
        }
    }

    /// Whether `notification` is one this node expects from itself (consumed: it is skipped once).
    func isOwn(_ notification: PostgresNotification) -> Bool {
        expected.withLock {
            Self.take(Sent(channel: notification.channel, processID: notification.processID, payload: notification.payload), from: &$0)
        }
    }

    /// The listener reconnected: notifications sent meanwhile were lost.
    func forget() {
        expected.withLock { $0 = [:] }
    }

    var count: Int { expected.withLock { $0.values.reduce(0, +) } }

    @discardableResult
    private static func take(_ sent: Sent, from expected: inout [Sent: Int]) -> Bool {
        guard let count = expected[sent] else { return false }
        expected[sent] = count > 1 ? count - 1 : nil
        return true
    }
}
