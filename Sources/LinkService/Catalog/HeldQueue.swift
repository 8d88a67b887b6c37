import Foundation
import Synchronization

/// A serial queue that runs nothing until released (`DispatchQueue`'s `initiallyInactive`, activated once).
final class HeldQueue: Sendable {
    let queue: DispatchQueue
    private let released = Mutex(false)

    init(label: String) {
        queue = DispatchQueue(label: label, attributes: .initiallyInactive)
    }

    /// libdispatch stops the process when an inactive queue is freed: one never released is released on the way out.
    deinit { release() }

    func release() {
        let first = released.withLock { released in
            defer { released = true }
            return !released
        }
        if first { queue.activate() }
    }
}
