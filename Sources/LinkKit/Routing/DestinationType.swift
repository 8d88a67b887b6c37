/// A typed in-app screen an app declares: `widgetDetail(id: int ≥ 1, tab: enum info|reviews?)`.
public struct DestinationType: Sendable, Hashable {
    public let name: String
    /// Sorted by name, so output is stable.
    public let parameters: [ParameterSpec]

    public init(name: String, parameters: [ParameterSpec]) {
        self.name = name
        self.parameters = parameters.sorted { $0.name < $1.name }
    }

    /// The spec of one parameter.
    public func parameter(_ name: String) -> ParameterSpec? {
        parameters.first { $0.name == name }
    }
}
