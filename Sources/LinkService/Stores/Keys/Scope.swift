/// What an API key may do. Each scope includes the ones below it: `admin` ⊃ `write` ⊃ `read`.
public enum Scope: String, Sendable, Comparable, CaseIterable {
    /// Read resources, resolve, analytics.
    case read
    /// Also create, change and delete resources.
    case write
    /// Also manage API keys.
    case admin

    private var rank: Int {
        switch self {
        case .read: 0
        case .write: 1
        case .admin: 2
        }
    }

    public static func < (lhs: Scope, rhs: Scope) -> Bool { lhs.rank < rhs.rank }
}
