import HTTPServer

extension Request {
    /// Query item `name` as a boolean: `true` or `1`, `false` or `0`, in any case; nil when it is absent.
    /// - Throws: `ServiceError.badRequest` for any other value.
    func flag(_ name: String) throws(ServiceError) -> Bool? {
        guard let text = query(name) else { return nil }
        switch text.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: throw .badRequest("\(name) must be true or false, not '\(text.prefix(100))'.")
        }
    }
}
