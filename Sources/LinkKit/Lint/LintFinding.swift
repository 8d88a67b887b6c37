/// One problem lint found in an AASA or assetlinks file.
public struct LintFinding: Sendable, Hashable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// iOS or Android will reject or misread the file; `linkd aasa validate` exits 1.
        case error
        /// Probably a mistake, but the file works as written.
        case warning

        /// Errors sort before warnings.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .error && rhs == .warning }
    }

    /// How bad it is.
    public let severity: Severity
    /// A stable identifier of the kind of problem, e.g. `unknownKey`, `teamID`, `unreachableRule`.
    public let code: String
    /// RFC 6901 pointer to the offending place (`""` is the whole document).
    public let pointer: String
    /// A sentence a person understands.
    public let message: String

    /// Creates a finding.
    /// - Parameters:
    ///   - severity: error or warning.
    ///   - code: a stable identifier of the kind of problem.
    ///   - pointer: RFC 6901 pointer.
    ///   - message: a sentence for a person.
    public init(_ severity: Severity, _ code: String, _ pointer: String, _ message: String) {
        self.severity = severity
        self.code = code
        self.pointer = pointer
        self.message = message
    }

    /// `error at /applinks/details/0: message`.
    public var description: String { "\(severity.rawValue) at \(pointer.isEmpty ? "(document)" : pointer): \(message)" }

    /// The finding as a JSON object: `{"severity", "code", "pointer", "message"}`.
    public var json: JSONValue {
        .object(["severity": .string(severity.rawValue), "code": .string(code), "pointer": .string(pointer), "message": .string(message)])
    }
}

/// Suggests the known key a misspelt one was probably meant to be (`casesensitive` → `caseSensitive`).
enum KeySuggestion {
    static func closest(to key: String, among known: [String]) -> String? {
        if let same = known.first(where: { $0.lowercased() == key.lowercased() }) { return same }
        guard key.count >= 3 else { return nil }
        let best = known.map { ($0, distance(key.lowercased(), $0.lowercased())) }.min { $0.1 < $1.1 }
        guard let best, best.1 <= 2 else { return nil }
        return best.0
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
