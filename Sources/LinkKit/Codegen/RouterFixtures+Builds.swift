/// The destinations a generated router's `build` is checked on (the fixtures' `builds`): per destination type of the
/// app, one with every parameter, one with the required ones only, a string with characters to encode, and per
/// parameter the values its schema refuses that the language's types can still hold (an int out of bounds, a string
/// too short, too long or empty). The answers are the server's builder's (`POST /v1/links/build`).
extension RouterFixtures {
    /// `{"type", "params"}` objects, in the types' order.
    public static func buildDestinations(_ table: RouterTable) -> [JSONValue] {
        var out: [JSONValue] = []
        var seen: Set<JSONValue> = []
        func add(_ type: String, _ params: [(String, JSONValue)]) {
            let destination = JSONValue.object([
                JSONMember(key: "type", value: .string(type)),
                JSONMember(key: "params", value: .object(params.map { JSONMember(key: $0.0, value: $0.1) })),
            ])
            if seen.insert(destination).inserted { out.append(destination) }
        }
        for destination in table.destinations {
            let all = destination.parameters.map { ($0.name, typed(goodValue($0), $0.kind)) }
            let required = all.filter { name, _ in destination.parameters.contains { $0.name == name && !$0.optional } }
            add(destination.name, all)
            add(destination.name, required)
            for (index, spec) in destination.parameters.enumerated() {
                var refused: [JSONValue] = []
                switch spec.kind {
                case .int(let min, let max):
                    refused = [
                        min.flatMap { $0 > Int64.min ? .number(String($0 - 1)) : nil },
                        max.flatMap { $0 < Int64.max ? .number(String($0 + 1)) : nil },
                    ].compactMap { $0 }
                case .string:
                    for text in ["red shoes", "caf\u{E9} & co/2"] {
                        for params in spec.optional ? [all] : [all, required] {
                            add(destination.name, params.map { $0.0 == spec.name ? ($0.0, .string(text)) : $0 })
                        }
                    }
                    refused = [.string("")] + badValues(spec).map(JSONValue.string)
                case .uuid, .bool, .enumeration:
                    break
                }
                for value in refused {
                    var params = all
                    params[index].1 = value
                    add(destination.name, params)
                }
            }
        }
        return out
    }

    /// A sample value's text as the JSON a build request carries.
    private static func typed(_ text: String, _ kind: ParameterSpec.Kind) -> JSONValue {
        switch kind {
        case .int: .number(text)
        case .bool: .bool(true)
        case .uuid: .string(text.lowercased())
        case .string, .enumeration: .string(text)
        }
    }
}
