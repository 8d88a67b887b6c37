import CMicroHTTPDShim

/// One open connection, from MHD's STARTED notification to its CLOSED one: its socket, and the phase its
/// current request is in, which the request callbacks store and the `ConnectionGuard` reads.
///
/// MHD's socket context for the connection is `socketContext`, the C struct through which the shim also reaches
/// `ServerContext` to answer MHD's own errors; its `owner` is this record, retained until CLOSED.
///
/// `@unchecked Sendable`: `socketContext` is allocated in `init` and freed in `deinit`; after `init` its phase word
/// is only accessed atomically and its `owner` set once, before MHD uses it; `slot` is guarded by the
/// `ConnectionGuard`'s lock; the rest is `let`s.
final class ConnectionRecord: @unchecked Sendable {
    /// Where the connection's current request is. Deadlines: `opened` and `headers` the header timeout, `body`
    /// the body timeout, `idle` the idle timeout; `processing` (the handler runs or the response is sent) none.
    enum Phase: UInt64 {
        /// Accepted; the first request line is not complete yet.
        case opened = 0
        /// The request line is in; its headers are not complete.
        case headers
        /// The headers are in; the body is being read.
        case body
        /// The responder runs, or the response is being sent.
        case processing
        /// Between keep-alive requests.
        case idle
    }

    let descriptor: Int32
    /// Never outlives it: the daemon, and so every connection, stops before the `Server` releases the context.
    unowned(unsafe) let context: ServerContext
    /// Holds the phase word too (`linkd_mhd_enter_phase`): the request callbacks reach it through MHD's socket
    /// context as a plain pointer, with no reference counting on the request path.
    let socketContext: UnsafeMutablePointer<linkd_mhd_socket_context>
    /// Its index in the `ConnectionGuard`'s entries; read and written only under the guard's lock.
    var slot = -1

    init(descriptor: Int32, context: ServerContext, errorResponse: linkd_mhd_error_response_callback) {
        self.descriptor = descriptor
        self.context = context
        socketContext = .allocate(capacity: 1)
        socketContext.initialize(
            to: linkd_mhd_socket_context(error_response: errorResponse, owner: nil, phase_word: Phase.opened.rawValue, body_bytes: 0))
    }

    deinit {
        socketContext.deinitialize(count: 1)
        socketContext.deallocate()
    }

    /// The socket context of the connection a request arrived on, its phase set to `phase` (from the URI
    /// callback: one call into MHD). Nil when MHD reported no connection (never, with the notification set).
    @inline(__always)
    static func entering(_ phase: Phase, on connection: OpaquePointer?) -> UnsafeMutablePointer<linkd_mhd_socket_context>? {
        guard let connection, let socketContext = linkd_mhd_socket_context_of(connection) else { return nil }
        linkd_mhd_enter_phase(socketContext, phase.rawValue)
        return socketContext
    }

    /// Records that the connection's request entered `phase`.
    func enter(_ phase: Phase) { linkd_mhd_enter_phase(socketContext, phase.rawValue) }

    /// `(transitions << 3) | phase`, stored only by the thread MHD serves the connection on (one at a time), read
    /// by the guard's watchdog: a changed word means the connection moved on, even back to the same phase.
    var observed: UInt64 { linkd_mhd_phase_word(socketContext) }

    /// The bytes of the current request's body received so far (reset as its headers complete).
    var bodyBytes: UInt64 { linkd_mhd_body_bytes(socketContext) }

    /// The phase a word records.
    static func phase(of word: UInt64) -> Phase { Phase(rawValue: word & 7) ?? .processing }
}
