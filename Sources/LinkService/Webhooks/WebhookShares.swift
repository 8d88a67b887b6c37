import Foundation
import Synchronization

/// How this node shares its delivery workers between workspaces (docs/WEBHOOKS.md, "Fairness"): the deliveries
/// each workspace has in flight, at most `limit` (fewer than the workers, so one workspace's backlog or slow
/// receivers always leave a worker to the others), and the order the node last claimed for them, so that a claim
/// takes the workspace served least recently (`WebhookStore.Fairness`).
final class WebhookShares: Sendable {
    /// Deliveries one workspace may have in flight on this node.
    let limit: Int
    /// The workspaces remembered as served lately; one not remembered goes first.
    static let remembered = 256

    private struct State {
        var inFlight: [UUID: Int] = [:]
        /// Least recently claimed first.
        var recent: [UUID] = []
    }
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// What the next claim is to respect.
    var fairness: WebhookStore.Fairness {
        state.withLock { state in
            WebhookStore.Fairness(full: state.inFlight.compactMap { $0.value >= limit ? $0.key : nil }, recent: state.recent)
        }
    }

    /// A delivery of `workspace` was claimed: in flight, and the workspace served last.
    func claimed(_ workspace: UUID) {
        state.withLock { state in
            state.inFlight[workspace, default: 0] += 1
            if let index = state.recent.firstIndex(of: workspace) { state.recent.remove(at: index) }
            state.recent.append(workspace)
            if state.recent.count > Self.remembered { state.recent.removeFirst() }
        }
    }

    /// A delivery of `workspace` is no longer in flight.
    func finished(_ workspace: UUID) {
        state.withLock { state in
            let left = (state.inFlight[workspace] ?? 1) - 1
            state.inFlight[workspace] = left > 0 ? left : nil
        }
    }
}
