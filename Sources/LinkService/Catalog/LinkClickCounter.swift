import Foundation
import Observability
import Postgres
import Synchronization

/// Counts the taps of links with a click limit (`maxClicks`) on this node and adds them to `links.clicks` every
/// `interval`, so every node reads what the others counted. A link's limit is held against the count read with
/// it plus this node's taps since: other nodes' taps of the last interval are not seen yet (docs/LINKS.md).
final class LinkClickCounter: BackgroundService {
    let name = "link click counter"
    static let threads = 1

    private struct State {
        /// This node's taps of each counted link since start.
        var taps: [UUID: Int64] = [:]
        /// Taps not yet written.
        var pending: [UUID: Int64] = [:]
    }

    private let state = Mutex(State())
    private let pool: ConnectionPool
    private let logger: Logger
    private let interval: DispatchTimeInterval
    private let thread = ServiceThread(name: "linkd.link-clicks")

    init(pool: ConnectionPool, logger: Logger, interval: DispatchTimeInterval = .seconds(1)) {
        self.pool = pool
        self.logger = logger
        self.interval = interval
    }

    var isHealthy: Bool { thread.isRunning }

    func start() {
        thread.start(every: interval) { [self] _ in flush() }
    }

    func shutdown() {
        thread.stop { flush() }
    }

    /// A tap of the link `id` was served.
    func tapped(_ id: UUID) {
        state.withLock { state in
            state.taps[id, default: 0] += 1
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
