import Foundation
import LinkKit

extension JSONValue {
    /// An RFC 3339 UTC timestamp with milliseconds, as `RFC3339` writes it.
    static func timestamp(_ date: Date) -> JSONValue {
        .string(RFC3339.string(date))
    }

    static func uuid(_ id: UUID) -> JSONValue { .string(id.canonicalText) }

    /// `.string` or `.null`.
    static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    /// Drops members whose value is `null` (optional fields the resource does not have).
    var compacted: JSONValue {
        guard case .object(let members) = self else { return self }
        return .object(members.filter { $0.value != .null })
    }
}
