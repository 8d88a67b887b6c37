import LinkKit

/// The JSON form of destination parameters:
/// `{"id": {"type": "int", "min": 1}, "tab": {"type": "enum", "values": ["info", "reviews"], "optional": true}}`.
enum ParameterSpecJSON {
    static let typeNames = ["string", "int", "uuid", "bool", "enum"]

    /// The document's schema of a parameter map, as `read` reads it and `json` writes it.
    static let schema = Schema.map(.ref("ParameterSpec")).with("propertyNames", Schema.identifier.json)
        .described("The typed parameters, by name.")
        .example(
            .object([
                "id": .object(["type": .string("int"), "min": .integer(1)]),
                "tab": .object(["type": .string("enum"), "values": .array([.string("info"), .string("reviews")]), "optional": .bool(true)]),
            ]))

    /// Reads and validates a parameter map, recording errors with pointers.
    static func read(_ value: JSONValue, at pointer: String, _ errors: FieldErrors) -> [ParameterSpec] {
        var map = JSONObjectReader(value, at: pointer, errors: errors)
        var specs: [ParameterSpec] = []
        for name in map.keys() {
            let at = map.at(name)
            guard Validators.identifier(name, at: at, errors) != nil, let member = map.value(name) else { continue }
            var spec = JSONObjectReader(member, at: at, errors: errors)
            let type = spec.string("type", required: true)
            let optional = spec.bool("optional") ?? false
            let kind: ParameterSpec.Kind?
            switch type {
            case "string"?:
                let minLength = spec.integer("minLength")
                let maxLength = spec.integer("maxLength")
                if let minLength, let maxLength, minLength > maxLength {
                    errors.add(spec.at("minLength"), "minLength is greater than maxLength.")
                }
                if let minLength, minLength < 0 { errors.add(spec.at("minLength"), "minLength cannot be negative.") }
                kind = .string(minLength: minLength.map(Int.init), maxLength: maxLength.map(Int.init))
            case "int"?:
                let min = spec.integer("min")
                let max = spec.integer("max")
                if let min, let max, min > max { errors.add(spec.at("min"), "min is greater than max.") }
                kind = .int(min: min, max: max)
            case "uuid"?: kind = .uuid
            case "bool"?: kind = .bool
            case "enum"?:
                let values = spec.strings("values", required: true, maxCount: 200) ?? []
                if values.isEmpty { errors.add(spec.at("values"), "An enum needs at least one value.") }
                if Set(values).count != values.count { errors.add(spec.at("values"), "Enum values must be distinct.") }
                kind = .enumeration(values)
            case let other?:
                errors.add(spec.at("type"), "Unknown parameter type '\(other)'; use one of \(typeNames.joined(separator: ", ")).")
                kind = nil
            case nil:
                kind = nil
            }
            spec.finish()
            if let kind { specs.append(ParameterSpec(name: name, kind: kind, optional: optional)) }
        }
        map.finish()
        return specs
    }

    static func json(_ specs: [ParameterSpec]) -> JSONValue {
        .object(
            specs.sorted { $0.name < $1.name }.map { spec in
                var members: [JSONMember] = [JSONMember(key: "type", value: .string(spec.kind.name))]
                switch spec.kind {
                case .string(let minLength, let maxLength):
                    if let minLength { members.append(JSONMember(key: "minLength", value: .integer(minLength))) }
                    if let maxLength { members.append(JSONMember(key: "maxLength", value: .integer(maxLength))) }
                case .int(let min, let max):
                    if let min { members.append(JSONMember(key: "min", value: .number(String(min)))) }
                    if let max { members.append(JSONMember(key: "max", value: .number(String(max)))) }
                case .enumeration(let values):
                    members.append(JSONMember(key: "values", value: .array(values.map(JSONValue.string))))
                case .uuid, .bool:
                    break
                }
                if spec.optional { members.append(JSONMember(key: "optional", value: .bool(true))) }
                return JSONMember(key: spec.name, value: .object(members))
            })
    }
}
