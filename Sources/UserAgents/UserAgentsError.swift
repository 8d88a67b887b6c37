/// Why the `User-Agent` regexes could not be loaded.
public struct UserAgentsError: Error, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String { case unreadable, invalidYAML, invalidRegex }
        private let value: Value
        /// The file cannot be read.
        public static let unreadable = Code(value: .unreadable)
        /// The file is not YAML, or not shaped as uap-core's `regexes.yaml`.
        public static let invalidYAML = Code(value: .invalidYAML)
        /// A regex does not compile.
        public static let invalidRegex = Code(value: .invalidRegex)
        public var description: String { value.rawValue }
    }

    public let code: Code
    /// The file it concerns.
    public let path: String
    /// What was wrong, when known (libyaml's problem, the regex).
    public let detail: String?

    init(_ code: Code, path: String, detail: String? = nil) {
        self.code = code
        self.path = path
        self.detail = detail
    }

    public var description: String {
        switch code {
        case .unreadable: "cannot read the user-agent regexes '\(path)'"
        case .invalidYAML: "the user-agent regexes '\(path)' are not uap-core's YAML: \(detail ?? "")"
        default: "a user-agent regex of '\(path)' does not compile: \(detail ?? "")"
        }
    }
}
