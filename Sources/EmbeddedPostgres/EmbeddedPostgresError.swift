/// What can go wrong running the private cluster. `description` says what to do about it.
public struct EmbeddedPostgresError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// `initdb`, `pg_ctl` or `postgres` were not found.
        public static let binariesNotFound = Code("binariesNotFound")
        /// Running as root, but there is no `postgres` user to run the server as.
        public static let userNotFound = Code("userNotFound")
        /// `initdb` failed.
        public static let initdbFailed = Code("initdbFailed")
        /// `pg_ctl start` failed.
        public static let startFailed = Code("startFailed")
        /// `pg_ctl stop` failed.
        public static let stopFailed = Code("stopFailed")
        /// Creating or preparing a directory failed.
        public static let fileSystem = Code("fileSystem")
        /// The server user cannot reach the data directory, nor the place a cluster is moved to then.
        public static let unreachable = Code("unreachable")

        public var description: String { name }
    }

    /// The kind of failure.
    public let code: Code
    /// What happened and what to do, for a person reading the terminal.
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "EmbeddedPostgresError(\(code)): \(message)" }
}
