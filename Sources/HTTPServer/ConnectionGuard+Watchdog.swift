import Glibc

/// The watchdog: a thread that wakes every `tick` to `sweep`, and at once when `stopWatchdog` writes to its pipe.
/// A coarse tick rather than a sleep until the next deadline: the phases are stored by the request threads
/// without telling anyone (a store each), so the watchdog learns of them by looking.
extension ConnectionGuard {
    /// How often the watchdog looks: deadlines are kept to within this.
    static let tickMilliseconds: Int32 = 250

    /// Starts the watchdog thread (once).
    func startWatchdog() {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        state.withLock { $0.wakeDescriptors = (descriptors[0], descriptors[1]) }
        // The thread gets its descriptor with its start, not from `state`: a server stopped at once may have
        // cleared `state` before the thread first runs.
        let box = Unmanaged.passRetained(WatchdogStart(owner: self, wake: descriptors[0])).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { raw in
                let start = Unmanaged<WatchdogStart>.fromOpaque(raw!).takeRetainedValue()
                start.owner.watch(wake: start.wake)
                return nil
            }, box)
        guard started == 0 else {
            Unmanaged<WatchdogStart>.fromOpaque(box).release()
            state.withLock { $0.wakeDescriptors = (-1, -1) }
            close(descriptors[0])
            close(descriptors[1])
            return
        }
        state.withLock { $0.watchdog = thread }
    }

    /// Stops the watchdog thread and waits for it. Idempotent.
    func stopWatchdog() {
        let (thread, descriptors) = state.withLock { state in
            defer {
                state.watchdog = nil
                state.wakeDescriptors = (-1, -1)
            }
            return (state.watchdog, state.wakeDescriptors)
        }
        guard let thread else { return }
        var byte: UInt8 = 1
        _ = write(descriptors.write, &byte, 1)
        pthread_join(thread, nil)
        close(descriptors.read)
        close(descriptors.write)
    }

    private func watch(wake: Int32) {
        var entry = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&entry, 1, Self.tickMilliseconds)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { return }
            sweep(now: Self.now())
        }
    }
}

/// What the watchdog thread starts with.
private final class WatchdogStart {
    let owner: ConnectionGuard
    let wake: Int32
    init(owner: ConnectionGuard, wake: Int32) {
        self.owner = owner
        self.wake = wake
    }
}
