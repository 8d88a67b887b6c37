@testable import LinkService
import Observability
import Synchronization
import Testing

/// The runner of the background services, with services that only note what is done to them.
@Suite("Service group")
struct ServiceGroupTests {
    /// What the services of one test did, in order (`start a`, `stop b`).
    final class Journal: Sendable {
        let events = Mutex<[String]>([])
        func note(_ event: String) { events.withLock { $0.append(event) } }
        var all: [String] { events.withLock { $0 } }
    }

    struct CannotStart: Error {}

    final class Noting: BackgroundService {
        static let threads = 2
        let name: String
        let journal: Journal
        let fails: Bool
        private let running = Atomic<Bool>(false)

        init(_ name: String, _ journal: Journal, fails: Bool = false) {
            self.name = name
            self.journal = journal
            self.fails = fails
        }

        func start() throws {
            journal.note("start \(name)")
            if fails { throw CannotStart() }
            running.store(true, ordering: .releasing)
        }

        func shutdown() {
            journal.note("stop \(name)")
            running.store(false, ordering: .releasing)
        }

        var isHealthy: Bool { running.load(ordering: .acquiring) }
    }

    final class Single: BackgroundService {
        static let threads = 1
        let name = "single"
        func start() {}
        func shutdown() {}
        var isHealthy: Bool { true }
    }

    @Test func startsInOrderAndStopsInReverse() throws {
        let journal = Journal()
        let group = ServiceGroup(["a", "b", "c"].map { Noting($0, journal) }, logger: Logger(label: "test", sink: .discard))
        try group.start()
        #expect(journal.all == ["start a", "start b", "start c"])
        group.shutdown()
        #expect(journal.all == ["start a", "start b", "start c", "stop c", "stop b", "stop a"])
    }

    /// A service that cannot start is stopped, then the ones before it in reverse; the later ones never start. The
    /// error reaches the caller and is logged with the service's name.
    @Test func aFailedStartStopsTheStartedOnesInReverse() throws {
        let journal = Journal()
        let log = InMemoryLogSink()
        let services = [Noting("a", journal), Noting("b", journal), Noting("c", journal, fails: true), Noting("d", journal)]
        let group = ServiceGroup(services, logger: Logger(label: "test", sink: log.sink))
        #expect(throws: CannotStart.self) { try group.start() }
        #expect(journal.all == ["start a", "start b", "start c", "stop c", "stop b", "stop a"])
        let failure = log.entries.first { $0.level == .error }
        #expect(failure?.metadata["service"] == "c")
        #expect(group.health.map(\.isHealthy) == [false, false, false, false])
    }

    @Test func reportsEachServicesHealthInStartOrder() throws {
        let journal = Journal()
        let services = [Noting("a", journal), Noting("b", journal)]
        let group = ServiceGroup(services, logger: Logger(label: "test", sink: .discard))
        #expect(group.health.map(\.isHealthy) == [false, false])
        try group.start()
        #expect(group.health.map(\.name) == ["a", "b"])
        #expect(group.health.map(\.isHealthy) == [true, true])
        services[1].shutdown()
        #expect(group.health.map(\.isHealthy) == [true, false])
    }

    /// The threads are counted from the services' kinds, each as many times as it is listed.
    @Test func countsTheThreadsOfItsServices() {
        let group = ServiceGroup([Noting("a", Journal()), Single(), Noting("b", Journal())], logger: Logger(label: "test", sink: .discard))
        #expect(group.threads == 5)
        #expect(ServiceGroup.threads(of: [Single.self, Noting.self]) == 3)
    }

    /// A list declared as a tuple type (`Application.Services`): its threads counted before any service is built,
    /// and the group built from a value of it keeps its order.
    @Test func aTupleListCountsAndKeepsItsOrder() {
        typealias Listed = (Noting, Single, Noting)
        #expect(ServiceGroup.threads(of: Listed.self) == 5)
        let group = ServiceGroup(
            (Noting("a", Journal()), Single(), Noting("b", Journal())) as Listed, logger: Logger(label: "test", sink: .discard))
        #expect(
            group.services.map(\.name)
                == ServiceGroup(
                    [Noting("a", Journal()), Single(), Noting("b", Journal())],
                    logger: Logger(label: "test", sink: .discard)
                ).services.map(\.name))
        #expect(group.threads == 5)
    }
}
