import Foundation
import HTTPServer
import Observability
import Postgres

/// Everything `Application.build` needs, already parsed and validated by the command line.
public struct ServiceConfiguration: Sendable {
    /// The HTTP listener: address, port, worker threads, limits.
    public var server: ServerConfiguration
    /// Where PostgreSQL is.
    public var database: ConnectionParameters
    /// Largest number of pooled database connections.
    public var databasePoolSize: Int
    /// The numbered SQL files.
    public var migrationsDirectory: URL
    /// Apply pending migrations at start (`linkd serve --no-migrate` turns it off).
    public var migrateOnStart: Bool
    /// `Cache-Control: public, max-age=…` of the association files, in seconds.
    public var associationMaxAge: Int = 3600
    /// Let `/v1/resolve` answer without an API key (the URL's host then decides the workspace).
    public var publicResolve: Bool = false
    /// One `request` log line (info) per HTTP request. Off by default: it cost ~40% of the association
    /// endpoint's throughput (bench/serving); `/metrics` counts every request anyway.
    public var accessLog: Bool = false

    public init(
        server: ServerConfiguration,
        database: ConnectionParameters,
        databasePoolSize: Int = 8,
        migrationsDirectory: URL,
        migrateOnStart: Bool = true
    ) {
        self.server = server
        self.database = database
        self.databasePoolSize = databasePoolSize
        self.migrationsDirectory = migrationsDirectory
        self.migrateOnStart = migrateOnStart
    }
}
