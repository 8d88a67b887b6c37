/// A background service whose work runs on one `ServiceThread` of its own: it counts one thread for the metrics'
/// stripes, is healthy while the thread runs, and shuts down by stopping it. A service with more to do at either
/// end (a last pass that writes out what it holds, a thread it may not start) says so in its own `isHealthy` or
/// `shutdown()`.
protocol SingleThreadService: BackgroundService {
    var thread: ServiceThread { get }
}

extension SingleThreadService {
    static var threads: Int { 1 }

    var isHealthy: Bool { thread.isRunning }

    func shutdown() {
        thread.stop()
    }
}
