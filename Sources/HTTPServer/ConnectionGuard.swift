import Glibc
import Observability
import Synchronization

/// Keeps slow, idle and piled-up connections from locking clients out (docs/CONNECTIONS.md).
///
/// Every open connection is registered here (MHD's STARTED and CLOSED notifications). A watchdog thread closes
/// connections whose request line and headers, body, or wait for the next keep-alive request outlast their
/// deadline, however slowly they trickle bytes (MHD's own timeout restarts at every byte), and bodies that
/// average less than the minimum rate once past its grace. A connection beyond `connectionLimit` makes room by
/// closing the oldest connection that is idle or has not sent its whole header yet, or else, when bodies being
/// read hold more than their share of the limit, one of them (`evictOldest`); a connection whose request is being
/// processed is never closed. When none can be closed, the new connection is answered 503 and closed.
///
/// Closing is `shutdown(2)`: MHD then sees the end of the stream and closes the connection itself. It is done
/// under `state`'s lock, which the CLOSED notification takes too, and MHD sends that notification before it
/// closes the descriptor (daemon.c, MHD_cleanup_connections): so the descriptor shut down is always still this
/// connection's, never a reused one. `shutdown(2)` does not block; it is the one system call made under the lock.
final class ConnectionGuard: Sendable {
    /// Why the server closed a connection early, a label of `linkd_http_connections_dropped_total`.
    enum Reason: Int, CaseIterable {
        case headerTimeout, bodyTimeout, idleTimeout, slowBody, evictedIdle, evictedUnfinished, refused

        var label: String {
            switch self {
            case .headerTimeout: "header_timeout"
            case .bodyTimeout: "body_timeout"
            case .idleTimeout: "idle_timeout"
            case .slowBody: "slow_body"
            case .evictedIdle: "evicted_idle"
            case .evictedUnfinished: "evicted_unfinished"
            case .refused: "refused"
            }
        }
    }

    /// What happens to a new connection.
    enum Admission { case admitted, refused }

    struct TrackedConnection {
        let record: ConnectionRecord
        /// The record's word when last looked at, and when it was first seen so (monotonic nanoseconds).
        var seen: UInt64
        var since: UInt64
        /// Shut down (or refused), waiting for MHD's CLOSED notification: no longer counted or chosen.
        var closing = false
    }

    struct State {
        /// The open connections; each record's `slot` is its index here.
        var connections: [TrackedConnection] = []
        /// Connections not closing.
        var live = 0
        var watchdog: pthread_t?
        var wakeDescriptors: (read: Int32, write: Int32) = (-1, -1)
    }

    let limit: Int
    /// Deadlines in nanoseconds by phase; 0: none.
    private let headerDeadline: UInt64
    private let bodyDeadline: UInt64
    private let idleDeadline: UInt64
    /// Bytes a second a body must average once it has taken `bodyGrace` nanoseconds; 0: no minimum.
    private let bodyRate: UInt64
    private let bodyGrace: UInt64
    /// Bodies being read kept at the limit before one of them makes room.
    private let bodyShare: Int
    let state = Mutex(State())
    private let dropped: [Counter]
    /// What a refused connection gets before it is closed: a whole 503 response, written as the connection opens.
    let refusal: [UInt8]

    init(configuration: ServerConfiguration, metrics: MetricsRegistry?) {
        limit = configuration.connectionLimit
        headerDeadline = UInt64(max(0, configuration.headerTimeout)) * 1_000_000_000
        bodyDeadline = UInt64(max(0, configuration.bodyTimeout)) * 1_000_000_000
        idleDeadline = UInt64(max(0, configuration.connectionTimeout)) * 1_000_000_000
        bodyRate = UInt64(max(0, configuration.bodyMinimumRate))
        bodyGrace = UInt64(max(0, configuration.bodyRateGrace)) * 1_000_000_000
        bodyShare = configuration.bodyShare
        let registry = metrics ?? MetricsRegistry()
        dropped = Reason.allCases.map { reason in
            registry.counter(
                "linkd_http_connections_dropped_total",
                help:
                    "Connections the server closed early: a header, body or idle deadline passed, a body below the minimum rate, evicted at the connection limit to make room, or refused there.",
                labels: ["reason": reason.label])
        }
        refusal = Self.refusalBytes()
        if let metrics {
            metrics.gauge("linkd_http_connections_open", help: "Open HTTP connections (closing ones excluded).") { [self] in
                [([:], Double(open))]
            }
        }
    }

    /// Open connections, closing ones excluded.
    var open: Int { state.withLock { $0.live } }

    /// How many connections were closed early for `reason`.
    func droppedCount(_ reason: Reason) -> UInt64 { dropped[reason.rawValue].value }

    /// Registers a new connection; beyond the limit, evicts the oldest idle or unfinished one to make room, or
    /// refuses the new one (the caller then answers 503 and closes it).
    func opened(_ record: ConnectionRecord) -> Admission {
        let now = Self.now()
        return state.withLock { state in
            record.slot = state.connections.count
            state.connections.append(TrackedConnection(record: record, seen: record.observed, since: now))
            state.live += 1
            guard state.live > limit else { return .admitted }
            if evictOldest(&state, now: now, sparing: record.slot) { return .admitted }
            state.connections[record.slot].closing = true
            state.live -= 1
            dropped[Reason.refused.rawValue].increment()
            return .refused
        }
    }

    /// Forgets a connection MHD is about to close (its CLOSED notification).
    func closed(_ record: ConnectionRecord) {
        state.withLock { state in
            let slot = record.slot
            guard slot >= 0, slot < state.connections.count, state.connections[slot].record === record else { return }
            if !state.connections[slot].closing { state.live -= 1 }
            let last = state.connections.removeLast()
            if slot < state.connections.count {
                state.connections[slot] = last
                last.record.slot = slot
            }
            record.slot = -1
        }
    }

    /// One watchdog pass: closes connections past their phase's deadline, then evicts while over the limit
    /// (connections that opened while MHD's workers were all full never reached `opened`'s eviction).
    func sweep(now: UInt64) {
        state.withLock { state in
            for index in state.connections.indices where !state.connections[index].closing {
                let word = state.connections[index].record.observed
                if word != state.connections[index].seen {
                    state.connections[index].seen = word
                    state.connections[index].since = now
                    continue
                }
                let phase = ConnectionRecord.phase(of: word)
                let elapsed = now &- state.connections[index].since
                let (deadline, reason) = deadline(of: phase)
                if deadline > 0, elapsed >= deadline {
                    close(&state, index, reason)
                } else if phase == .body, elapsed >= bodyGrace, isBelowRate(state.connections[index].record.bodyBytes, elapsed: elapsed) {
                    close(&state, index, .slowBody)
                }
            }
            while state.live > limit, evictOldest(&state, now: now, sparing: -1) {}
        }
    }

    private func deadline(of phase: ConnectionRecord.Phase) -> (UInt64, Reason) {
        switch phase {
        case .opened, .headers: (headerDeadline, .headerTimeout)
        case .body: (bodyDeadline, .bodyTimeout)
        case .idle: (idleDeadline, .idleTimeout)
        case .processing: (0, .idleTimeout)
        }
    }

    /// Whether a body that has brought `bytes` in `elapsed` nanoseconds has averaged less than the minimum rate.
    private func isBelowRate(_ bytes: UInt64, elapsed: UInt64) -> Bool {
        // bytes / seconds < rate, without dividing: bytes * 1e9 < rate * nanoseconds (both far from overflowing).
        bodyRate > 0 && bytes.multipliedReportingOverflow(by: 1_000_000_000).partialValue < bodyRate &* elapsed
    }

    /// Closes the connection that has waited longest while idle or before completing its header, except the one
    /// in slot `spared`; when there is none and bodies being read hold more than their share, the body read longest
    /// among those below the minimum rate so far (a new body, below it too, has not had its chance yet), else the
    /// slowest body. False when every other connection is busy with a request.
    private func evictOldest(_ state: inout State, now: UInt64, sparing spared: Int) -> Bool {
        var oldest = -1
        var oldestSlow = -1
        var slowest = -1
        var slowestRate = Double.infinity
        var bodies = 0
        for index in state.connections.indices where index != spared && !state.connections[index].closing {
            let word = state.connections[index].record.observed
            if word != state.connections[index].seen { // moved on since the last look: its wait starts now
                state.connections[index].seen = word
                state.connections[index].since = now
            }
            let since = state.connections[index].since
            switch ConnectionRecord.phase(of: word) {
            case .opened, .headers, .idle:
                if oldest < 0 || since < state.connections[oldest].since { oldest = index }
            case .body:
                bodies += 1
                let elapsed = max(1, now &- since)
                let bytes = state.connections[index].record.bodyBytes
                if isBelowRate(bytes, elapsed: elapsed), oldestSlow < 0 || since < state.connections[oldestSlow].since {
                    oldestSlow = index
                }
                let rate = Double(bytes) / Double(elapsed)
                if rate < slowestRate {
                    slowest = index
                    slowestRate = rate
                }
            case .processing:
                continue
            }
        }
        if oldest >= 0 {
            let idle = ConnectionRecord.phase(of: state.connections[oldest].seen) == .idle
            close(&state, oldest, idle ? .evictedIdle : .evictedUnfinished)
            return true
        }
        guard bodies > bodyShare else { return false }
        close(&state, oldestSlow >= 0 ? oldestSlow : slowest, .evictedUnfinished)
        return true
    }

    private func close(_ state: inout State, _ index: Int, _ reason: Reason) {
        // "SHUT_RDWR: further receptions and transmissions will be disallowed" (shutdown(2)); MHD's next read
        // sees the end of the stream and closes the connection, which ends in `closed`.
        _ = Glibc.shutdown(state.connections[index].record.descriptor, Int32(SHUT_RDWR))
        state.connections[index].closing = true
        state.live -= 1
        dropped[reason.rawValue].increment()
    }

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    private static func refusalBytes() -> [UInt8] {
        var response = Response.problem(
            .serviceUnavailable(detail: "The server is at its connection limit and every connection is busy; retry shortly."))
        response.headers.add("Retry-After", "1")
        response.headers.add("Connection", "close")
        return response.wireBytes
    }
}
