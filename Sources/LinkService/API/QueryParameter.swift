/// A query parameter of an `APIOperation`, e.g. `?platform=ios`.
struct QueryParameter: Sendable {
    let name: String
    let schema: Schema
    let description: String
    var required = false

    /// - Parameters:
    ///   - name: the parameter name.
    ///   - schema: its values.
    ///   - description: what it does.
    ///   - required: whether requests must send it.
    init(_ name: String, _ schema: Schema, _ description: String, required: Bool = false) {
        self.name = name
        self.schema = schema
        self.description = description
        self.required = required
    }
}
