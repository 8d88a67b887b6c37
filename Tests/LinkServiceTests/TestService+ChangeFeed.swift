import Foundation
@testable import LinkService
import Postgres
import Testing
import TestSupport

extension TestService {
    /// Waits until this node's change feed has applied every notification committed before the call, and the
    /// reloads they queued have run: what a test needs before it counts what the notifications did, or asserts
    /// that one changed nothing. Notifications reach a listener in commit order, so the last one, the test's own,
    /// is the marker: a key this node keeps, revoked behind its back and told on the keys channel, leaves its
    /// cache once the feed has come that far.
    func waitForChangeFeed() throws {
        try waitUntil("the change feed of the node on port \(port) to connect") { serviceIsListening(self) }
        let key = try self.key()
        let id = try #require(APIKeySecret(authorization: "Bearer \(key)")?.keyID)
        let keys = application.catalogChanges.keys
        try waitUntil("the node on port \(port) to keep the marker key") {
            try Fixture.expect(200, request("GET", "/v1/teams", key: key))
            return keys.lookup(id) != nil
        }
        let admin = try Connection(application.configuration.database)
        try admin.execute("UPDATE api_keys SET revoked_at = now() WHERE id = \(id)")
        try admin.notify(KeyCache.channel, payload: id.canonicalText)
        try waitUntil("the change feed of the node on port \(port) to hear the marker") { keys.lookup(id) == nil }
        application.catalogChanges.reloader.drain()
    }
}
