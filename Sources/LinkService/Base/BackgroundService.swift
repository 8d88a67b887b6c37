/// Work that runs beside the HTTP server until it is told to stop: the application's services are listed in
/// `Application.Services` (the change feed, the fetch log, the hit writer, the click tokens, the event writer, the
/// link click counter, the health checks, webhook delivery, webhook cleanup, the conversions' webhooks, the events'
/// retention and the mailer). A `ServiceGroup` starts them in order before the server listens and stops them in
/// reverse after the server has finished its requests (`docs/DESIGN.md`, "Adding a background service").
///
/// Thread-based, not async: request handlers are synchronous on libmicrohttpd's threads, and each service
/// owns the threads its work runs on (usually one `ServiceThread`).
protocol BackgroundService: AnyObject, Sendable {
    /// A short name for logs and `/readyz`.
    var name: String { get }
    /// How many threads of its own it runs that record metrics or ask per-thread caches: the metrics' stripes
    /// are sized with it (`ServiceGroup.threads(of:)`). Static because the stripes exist before any service is
    /// built (the services take them).
    static var threads: Int { get }
    /// Starts the work and returns once what the server needs from it is in place (the catalog loaded,
    /// today's visitor salt read). - Throws: when the service cannot start; the application does not listen.
    func start() throws
    /// Writes out what it holds and stops; returns when it has. Idempotent; safe before `start()` and after a
    /// `start()` that threw.
    func shutdown()
    /// Whether it is doing its work now (false: e.g. its database connection is lost and being retried).
    var isHealthy: Bool { get }
}
