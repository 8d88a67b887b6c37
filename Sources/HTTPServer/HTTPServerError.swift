/// Why the `Server` could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String { case invalidAddress, bindFailed, invalidConfiguration, alreadyStarted }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// `host` is not an IPv4 or IPv6 literal, or the port is out of range.
        public static let invalidAddress = Code(.invalidAddress)
        /// MHD could not bind/listen (address in use, not local, no permission).
        public static let bindFailed = Code(.bindFailed)
        /// A limit or size in the configuration is out of range.
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// `start()` was called twice.
        public static let alreadyStarted = Code(.alreadyStarted)

        /// The code's name, e.g. `bindFailed`.
        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// The address involved, `host:port` (`[v6]:port`).
    public let address: String
    /// The OS reason when known (`strerror`), e.g. "Address already in use".
    public let reason: String?

    /// Creates an error.
    public init(_ code: Code, address: String, reason: String? = nil) {
        self.code = code
        self.address = address
        self.reason = reason
    }

    /// Failed to bind `address`.
    public static func bindFailed(_ address: String, reason: String? = nil) -> HTTPServerError {
        HTTPServerError(.bindFailed, address: address, reason: reason)
    }

    /// Code, address and OS reason: safe to print.
    public var description: String {
        "HTTPServerError(\(code), address: \(address)\(reason.map { ", reason: \($0)" } ?? ""))"
    }
}
