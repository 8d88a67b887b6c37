import Observability

/// The application's background services run as one, on the model of swift-service-lifecycle's `ServiceGroup`
/// but on threads: `start()` starts them in order, each once the one before is in place; `shutdown()` stops
/// them in reverse; `health` reports each one for `/readyz`; `threads` counts the threads they run, which size
/// the metrics' stripes.
final class ServiceGroup: Sendable {
    /// In start order.
    let services: [any BackgroundService]
    private let logger: Logger

    init(_ services: [any BackgroundService], logger: Logger) {
        self.services = services
        self.logger = logger
    }

    /// The services of a tuple, in its order: a value of the list type whose threads sized the stripes
    /// (`threads(of:)`), so the compiler holds the services built to the list declared.
    convenience init<each Service: BackgroundService>(_ services: (repeat each Service), logger: Logger) {
        var list: [any BackgroundService] = []
        for service in repeat each services { list.append(service) }
        self.init(list, logger: logger)
    }

    /// The threads that services of these kinds run (`BackgroundService.threads`).
    static func threads(of kinds: [any BackgroundService.Type]) -> Int {
        kinds.reduce(0) { $0 + $1.threads }
    }

    /// The threads that the services of a tuple type run, before any is built.
    static func threads<each Service: BackgroundService>(of _: (repeat each Service).Type) -> Int {
        var total = 0
        for kind in repeat (each Service).self { total += kind.threads }
        return total
    }

    /// The threads this group's services run.
    var threads: Int { Self.threads(of: kinds) }

    /// Each service's type, in start order.
    var kinds: [any BackgroundService.Type] { services.map { type(of: $0) } }

    /// Starts each service in order, the next once the one before has returned.
    /// - Throws: the error of the first service that cannot start, logged with its name, after shutting it down
    ///   and then the ones started before it in reverse; the later ones are not started.
    func start() throws {
        for (index, service) in services.enumerated() {
            do {
                try service.start()
                logger.debug("background service started", metadata: ["service": service.name])
            } catch {
                logger.error("background service cannot start", metadata: ["service": service.name, "error": "\(error)"])
                for started in services[...index].reversed() { started.shutdown() }
                throw error
            }
        }
    }

    /// Stops every service in reverse order, each once the ones started after it have written out what they held
    /// (a shutdown is idempotent and safe before start, so all are asked). Returns when all have stopped.
    func shutdown() {
        for service in services.reversed() {
            service.shutdown()
            logger.debug("background service stopped", metadata: ["service": service.name])
        }
    }

    /// Each service's name and whether it is doing its work now, in start order.
    var health: [(name: String, isHealthy: Bool)] {
        services.map { ($0.name, $0.isHealthy) }
    }
}
