import EmbeddedPostgres
import Foundation
import Observability
import Postgres
import Synchronization
import Testing
import TestSupport

/// Collects what a listener delivers, and lets a test wait for it.
final class Inbox: Sendable {
    private let notifications = Mutex<[PostgresNotification]>([])
    private let reconnects = Atomic<Int>(0)

    func receive(_ notification: PostgresNotification) { notifications.withLock { $0.append(notification) } }
    func reconnected() { reconnects.add(1, ordering: .relaxed) }

    var received: [PostgresNotification] { notifications.withLock { $0 } }
    var reconnectCount: Int { reconnects.load(ordering: .relaxed) }

    /// Polls `condition` every 10 ms for up to `timeout`.
    func wait(upTo timeout: Duration = .seconds(10), until condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }
}

@Suite struct NotificationListenerTests {
    @Test func deliversNotificationsInOrderAndShutsDownPromptly() throws {
        try withTestDatabase { parameters in
            let inbox = Inbox()
            let listener = NotificationListener(
                parameters: parameters, channels: ["domains", "Odd \"Channel\""], logger: testLogger(),
                onNotification: inbox.receive, onReconnect: inbox.reconnected
            )
            listener.start()
            listener.start()  // second start is ignored
            #expect(inbox.wait { listener.isConnected })
            let sender = try Connection(parameters)
            try sender.notify("domains", payload: "a.example.com")
            try sender.notify("Odd \"Channel\"", payload: "ünï 🚀")
            try sender.notify("elsewhere", payload: "not listened to")
            try sender.executeScript("BEGIN")
            try sender.notify("domains", payload: "after commit")
            try sender.executeScript("COMMIT")
            #expect(inbox.wait { inbox.received.count >= 3 })
            #expect(inbox.received.map(\.payload) == ["a.example.com", "ünï 🚀", "after commit"])
            #expect(inbox.received.map(\.channel) == ["domains", "Odd \"Channel\"", "domains"])
            #expect(inbox.received.allSatisfy { $0.processID == sender.backendPID })

            let started = ContinuousClock.now
            listener.shutdown()
            listener.shutdown()
            #expect(ContinuousClock.now - started < .seconds(1))
            #expect(!listener.isConnected)
            #expect(inbox.reconnectCount == 0)
        }
    }

    @Test func reconnectsAfterServerRestartAndReportsIt() throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = EmbeddedCluster(dataDirectory: directory, logger: testLogger(), durable: false)
        defer { cluster.stop() }
        try cluster.start()
        let parameters = try ConnectionParameters(cluster.connectionString)

        let inbox = Inbox()
        let listener = NotificationListener(
            parameters: parameters, channels: ["domains"], logger: testLogger(), maximumBackoff: .milliseconds(200),
            onNotification: inbox.receive, onReconnect: inbox.reconnected
        )
        listener.start()
        defer { listener.shutdown() }
        #expect(inbox.wait { listener.isConnected })
        try Connection(parameters).notify("domains", payload: "before")
        #expect(inbox.wait { inbox.received.count == 1 })

        cluster.stop()
        #expect(inbox.wait { !listener.isConnected })
        usleep(300_000)  // a few failed reconnection attempts while the server is down
        try cluster.start()
        #expect(inbox.wait { inbox.reconnectCount == 1 && listener.isConnected })

        try Connection(parameters).notify("domains", payload: "after")
        #expect(inbox.wait { inbox.received.count == 2 })
        #expect(inbox.received.map(\.payload) == ["before", "after"])
    }

    @Test func terminatedBackendIsReplacedToo() throws {
        try withTestDatabase { parameters in
            let inbox = Inbox()
            let listener = NotificationListener(
                parameters: parameters, channels: ["c"], logger: testLogger(), maximumBackoff: .milliseconds(200),
                onNotification: inbox.receive, onReconnect: inbox.reconnected
            )
            listener.start()
            defer { listener.shutdown() }
            #expect(inbox.wait { listener.isConnected })
            let admin = try Connection(parameters)
            try admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND datname = current_database()")
            #expect(inbox.wait { inbox.reconnectCount == 1 && listener.isConnected })
            try admin.notify("c", payload: "x")
            #expect(inbox.wait { inbox.received.map(\.payload) == ["x"] })
        }
    }
}
