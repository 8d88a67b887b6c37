/// A typed in-app screen an app declares: `widgetDetail(id: int ≥ 1, tab: enum info|reviews?)`.
public struct DestinationType: Sendable, Hashable {
    public let name: String
    /// Sorted by name, so output is stable.
    public let parameters: [ParameterSpec]
    /// Links to this screen are for signed-in users: resolve says so, and a generated router's pending-link
    /// holder keeps such a destination until the app reports a signed-in user (docs/CODEGEN.md).
    public let requiresSignIn: Bool

    public init(name: String, parameters: [ParameterSpec], requiresSignIn: Bool = false) {
        self.name = name
        self.parameters = parameters.sorted { $0.name < $1.name }
        self.requiresSignIn = requiresSignIn
    }

    /// The spec of one parameter.
    public func parameter(_ name: String) -> ParameterSpec? {
        parameters.first { $0.name == name }
    }
}
