import Foundation
import Observability
import Synchronization

/// Receives `NOTIFY`s on a dedicated connection and thread, and survives server restarts.
///
/// The loop connects, `LISTEN`s to every channel, then sleeps in `poll(2)` on the connection's socket and
/// a self-pipe. Notifications are handed to `onNotification` on the listener's thread, in order. When the
/// connection breaks (server restart, terminated backend, network), it reconnects with exponential backoff
/// (100 ms doubling up to `maximumBackoff`), re-`LISTEN`s and then calls `onReconnect`: notifications sent
/// while it was away are lost, so the application reloads what it caches. `onConnect` runs on every
/// connection before its first notification is delivered (it may query on it: read what changed meanwhile),
/// `onDisconnect` when a connection is lost.
/// `shutdown()` writes to the self-pipe, which wakes the loop at once wherever it sleeps, and joins it.
public final class NotificationListener: Sendable {
    private struct State: Sendable {
        var started = false
        var stopping = false
        var connected = false
    }

    private let parameters: ConnectionParameters
    private let channels: [String]
    private let logger: Logger
    private let onNotification: @Sendable (PostgresNotification) -> Void
    private let onReconnect: @Sendable () -> Void
    private let onConnect: @Sendable (Connection) -> Void
    private let onDisconnect: @Sendable () -> Void
    private let maximumBackoff: Duration
    private let state = Mutex(State())
    private let finished = DispatchSemaphore(value: 0)
    /// Signalled at the first connection (or when the loop ends); re-signalled by each waiter.
    private let firstConnection = DispatchSemaphore(value: 0)
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// Creates a listener; nothing happens until `start()`.
    /// - Parameters:
    ///   - parameters: where to connect (a connection of its own, not from a pool).
    ///   - channels: channel names to `LISTEN` to (quoted as identifiers, so any text works).
    ///   - logger: connection losses and reconnects are logged.
    ///   - maximumBackoff: the longest pause between reconnection attempts.
    ///   - onNotification: called on the listener thread for each notification.
    ///   - onReconnect: called on the listener thread after a lost connection was re-established and the
    ///     channels re-`LISTEN`ed (not after the first connect), after `onConnect`.
    ///   - onConnect: called on the listener thread with each new connection once its channels are
    ///     `LISTEN`ed (the first one included), before any notification on it is delivered; it may run
    ///     statements on it (and must not keep it).
    ///   - onDisconnect: called on the listener thread when a connection is lost (not at shutdown).
    public init(
        parameters: ConnectionParameters, channels: [String], logger: Logger, maximumBackoff: Duration = .seconds(5),
        onNotification: @escaping @Sendable (PostgresNotification) -> Void,
        onReconnect: @escaping @Sendable () -> Void,
        onConnect: @escaping @Sendable (Connection) -> Void = { _ in },
        onDisconnect: @escaping @Sendable () -> Void = {}
    ) {
        self.parameters = parameters
        self.channels = channels
        self.logger = logger
        self.maximumBackoff = maximumBackoff
        self.onNotification = onNotification
        self.onReconnect = onReconnect
        self.onConnect = onConnect
        self.onDisconnect = onDisconnect
        var fds: [Int32] = [-1, -1]
        // Non-blocking so shutdown() never blocks on a full pipe; close-on-exec so children do not inherit it.
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
        } else {
            fds = [-1, -1]
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        shutdown()
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    /// Whether the listener currently holds a live, `LISTEN`ing connection.
    public var isConnected: Bool { state.withLock { $0.connected } }

    /// Starts the listener thread and returns at once. A second call does nothing.
    public func start() {
        let shouldStart = state.withLock { state -> Bool in
            guard !state.started, !state.stopping else { return false }
            state.started = true
            return true
        }
        guard shouldStart else { return }
        let thread = Thread { [self] in
            run()
            firstConnection.signal()
            finished.signal()
        }
        thread.name = "linkd.listener"
        thread.start()
    }

    /// Stops the loop and waits for its thread to finish (promptly: the self-pipe wakes any wait).
    /// Idempotent; safe before `start()`.
    public func shutdown() {
        let mustJoin = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.stopping = true
            return state.started
        }
        guard mustJoin else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        finished.wait()
    }

    /// Waits until the first connection is `LISTEN`ing, at most `timeout`, without polling.
    /// - Returns: whether it is connected now.
    public func waitUntilConnected(timeout: Duration) -> Bool {
        let (seconds, attoseconds) = timeout.components
        if firstConnection.wait(timeout: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))) == .success
        {
            firstConnection.signal()
        }
        return isConnected
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    // MARK: - The loop (listener thread only)

    private func run() {
        var backoff = Duration.milliseconds(100)
        var hasConnectedBefore = false
        while !isStopping {
            let connection: Connection
            do {
                connection = try Connection(parameters)
                for channel in channels { try connection.listen(channel) }
            } catch {
                logger.warning(
                    "listener cannot connect",
                    metadata: [
                        "error": "\(error)", "db.retry_in_ms": "\(backoff.milliseconds)",
                    ])
                if sleepOrWake(backoff) { break }
                backoff = min(backoff * 2, maximumBackoff)
                continue
            }
            backoff = .milliseconds(100)
            onConnect(connection)
            state.withLock { $0.connected = true }
            if !hasConnectedBefore { firstConnection.signal() }
            if hasConnectedBefore {
                logger.notice("listener reconnected", metadata: ["db.channels": channels.joined(separator: ",")])
                onReconnect()
            } else {
                logger.info("listener connected", metadata: ["db.channels": channels.joined(separator: ",")])
            }
            hasConnectedBefore = true
            let stopped = listen(on: connection)
            state.withLock { $0.connected = false }
            if stopped { break }
            logger.warning("listener lost its connection; reconnecting")
            onDisconnect()
        }
    }

    /// Delivers notifications until the connection breaks (returns false) or shutdown is asked (returns true).
    private func listen(on connection: Connection) -> Bool {
        while true {
            // Drain first: notifications can arrive with the LISTEN command's own response.
            while let notification = connection.nextNotification() { onNotification(notification) }
            let (readable, woken) = connection.waitForInput(timeout: -1, wakeDescriptor: wakeRead)
            if woken || isStopping { return true }
            if readable, !connection.consumeInput() { return false }
            if !connection.isConnected { return false }
        }
    }

    /// Sleeps for `duration` unless woken by `shutdown()`. Returns true when woken.
    private func sleepOrWake(_ duration: Duration) -> Bool {
        var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 1, Int32(duration.milliseconds))
        return isStopping
    }
}

extension Duration {
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
