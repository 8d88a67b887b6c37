/// A destination parameter value after conversion to its declared type.
public enum TypedValue: Sendable, Hashable {
    case string(String)
    case int(Int64)
    case bool(Bool)
    /// Canonical lower-case 8-4-4-4-12 form.
    case uuid(String)
}
