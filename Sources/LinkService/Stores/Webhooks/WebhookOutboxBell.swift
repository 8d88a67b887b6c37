import Synchronization

/// Rung once a write that queued webhook events into the outbox (`WebhookStore.enqueue`, `ChangeSet.event`) has
/// committed: the threads that listen (the delivery workers, `WebhookDeliveries`) look at the outbox now rather
/// than at their next pass. A type of the outbox's folder rather than a closure handed over by `Application`, so
/// that every writer's tie to the outbox's readers points down to it, where the layer test sees it
/// (docs/DESIGN.md, "Inside LinkService").
final class WebhookOutboxBell: Sendable {
    private let listeners = Mutex<[ServiceThread]>([])

    init() {}

    /// Wakes `threads` at every ring from now on.
    func listen(_ threads: [ServiceThread]) {
        listeners.withLock { $0 += threads }
    }

    /// Wakes each listening thread once: one that is not sleeping passes its next sleep at once.
    func ring() {
        for thread in listeners.withLock({ $0 }) { thread.wake() }
    }
}
