@testable import LinkKit

extension DestinationType {
    /// The tests' usual destination: a widget by its id (1 or more), with an optional tab (`info` or `reviews`).
    static let widgetDetail = DestinationType(
        name: "widgetDetail",
        parameters: [
            ParameterSpec(name: "id", kind: .int(min: 1, max: nil)),
            ParameterSpec(name: "tab", kind: .enumeration(["info", "reviews"]), optional: true),
        ])
}
