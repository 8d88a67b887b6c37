/// Why a MaxMind DB file could not be opened.
public struct GeoIPError: Error, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String { case unreadable, invalid }
        private let value: Value
        /// The file cannot be opened or read.
        public static let unreadable = Code(value: .unreadable)
        /// The file is not a MaxMind DB file (libmaxminddb refuses its metadata or search tree).
        public static let invalid = Code(value: .invalid)
        public var description: String { value.rawValue }
    }

    public let code: Code
    public let path: String
    /// libmaxminddb's message (or the system's, for a file that cannot be read).
    public let detail: String

    init(_ code: Code, path: String, detail: String) {
        self.code = code
        self.path = path
        self.detail = detail
    }

    public var description: String {
        code == .unreadable
            ? "cannot read the GeoIP database '\(path)': \(detail)"
            : "'\(path)' is not a MaxMind DB file (GeoLite2 Country or DB-IP Lite Country): \(detail)"
    }
}
