import Foundation
import HTTPServer
@testable import LinkService
import Outbound
import Postgres
import Testing

/// The application's outbound client (the association health checks' HTTP) is made from the service
/// configuration's `outbound` settings, as the command line parsed them.
@Suite("Outbound client of the application")
struct OutboundClientTests {
    static func configuration() throws -> ServiceConfiguration {
        ServiceConfiguration(
            server: ServerConfiguration(), database: try ConnectionParameters("host=/nonexistent dbname=none"),
            migrationsDirectory: migrationsDirectory, migrateOnStart: false)
    }

    @Test func theClientTakesTheConfiguredSettings() throws {
        var configuration = try Self.configuration()
        configuration.outbound.resolve = [try #require(ResolveOverride("app-site-association.cdn-apple.com:8443:127.0.0.1"))]
        configuration.outbound.timeout = .seconds(3)
        configuration.outbound.caFile = "/etc/hostname"
        let application = try Application(configuration: configuration, logger: .quiet)
        #expect(application.outbound.settings.resolve.map(\.description) == ["app-site-association.cdn-apple.com:8443:127.0.0.1"])
        #expect(application.outbound.settings.timeout == .seconds(3))
        #expect(application.outbound.settings.connectTimeout == .seconds(3))
        #expect(application.outbound.settings.caFile == "/etc/hostname")
    }

    @Test func anUnreadableCAFileStopsTheApplication() throws {
        var configuration = try Self.configuration()
        configuration.outbound.caFile = "/nonexistent/ca.pem"
        #expect(throws: OutboundFailure.self) { try Application(configuration: configuration, logger: .quiet) }
    }
}
