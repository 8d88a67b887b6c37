/// The names a Swift or Kotlin router gives the table's destinations: each destination's type (a Swift case, a
/// Kotlin class) and each enum parameter's type (`WidgetDetailTab`), claimed in `LinkDestination`'s one namespace,
/// and each destination's parameter names, claimed per destination (`RouterNames.Scope`).
struct DestinationNames {
    private let types: [String: String]
    /// Keyed `destination.parameter`.
    private let enumTypes: [String: String]
    private let parameters: [String: [String: String]]

    /// - Parameters:
    ///   - members: the scope of `LinkDestination`'s members.
    ///   - type: a destination's type name before it is claimed.
    ///   - parameters: an empty scope of one destination's parameter names.
    init(_ table: RouterTable, members: RouterNames.Scope, type: (String) -> String, parameters: RouterNames.Scope) {
        var members = members
        var types: [String: String] = [:]
        var names: [String: [String: String]] = [:]
        for destination in table.destinations {
            types[destination.name] = members.claim(type(destination.name))
            var scope = parameters
            names[destination.name] = Dictionary(
                destination.parameters.map { ($0.name, scope.claim($0.name)) }, uniquingKeysWith: { first, _ in first })
        }
        var enumTypes: [String: String] = [:]
        for (destination, spec, _) in RouterSource.enumParameters(table) {
            enumTypes[destination.name + "." + spec.name] = members.claim(
                RouterNames.upperCamel(destination.name) + RouterNames.upperCamel(spec.name))
        }
        (self.types, self.enumTypes, self.parameters) = (types, enumTypes, names)
    }

    func type(_ destination: DestinationType) -> String { types[destination.name]! }

    func enumType(_ spec: ParameterSpec, in destination: DestinationType) -> String { enumTypes[destination.name + "." + spec.name]! }

    func parameter(_ spec: ParameterSpec, in destination: DestinationType) -> String { parameters[destination.name]![spec.name]! }

    /// A Swift router's: cases named as the destinations, labels free of Swift's keywords.
    static func swift(_ table: RouterTable) -> DestinationNames {
        DestinationNames(
            table, members: RouterNames.Scope(reserved: RouterNames.swiftMembers), type: { $0 },
            parameters: RouterNames.Scope(reserved: RouterNames.swiftKeywords))
    }

    /// A Kotlin router's: classes in upper camel case, properties as the JVM's getters keep them apart.
    static func kotlin(_ table: RouterTable) -> DestinationNames {
        DestinationNames(
            table, members: RouterNames.Scope(reserved: RouterNames.kotlinClasses), type: RouterNames.upperCamel,
            parameters: RouterNames.Scope(reserved: RouterNames.kotlinProperties, foldsFirstLetter: true))
    }
}
