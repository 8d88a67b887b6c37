extension DestinationType {
    /// The parameters of a destination given as JSON (`{"id": 42, "tab": "reviews"}`), checked against the
    /// declaration exactly as resolve checks a captured value (`ParameterSpec.convert`): the inverse of resolve's
    /// `destination.params`. Ints are JSON integers, bools `true`/`false`, the rest strings.
    /// - Returns: parameter name → typed value, and the problems, each with an RFC 6901 pointer relative to
    ///   `params` (the values are usable only when there are none).
    public func values(_ params: [JSONMember]) -> (values: [String: TypedValue], problems: [(pointer: String, detail: String)]) {
        var values: [String: TypedValue] = [:]
        var problems: [(pointer: String, detail: String)] = []
        for member in params {
            let pointer = JSONPointer.appending("", member.key)
            guard let spec = parameter(member.key) else {
                problems.append((pointer, "The destination type '\(name)' has no parameter '\(member.key)'."))
                continue
            }
            if case .null = member.value { continue } // null reads as absent
            guard let text = Self.text(member.value, as: spec.kind) else {
                problems.append((pointer, "The parameter '\(spec.name)' must be \(Self.article(spec.kind))."))
                continue
            }
            guard !text.isEmpty else {
                problems.append((pointer, "The parameter '\(spec.name)' cannot be empty: resolve reads an empty value as absent."))
                continue
            }
            switch spec.convert(text) {
            case .success(let value): values[spec.name] = value
            case .failure(let error): problems.append((pointer, error.detail))
            }
        }
        for spec in parameters
        where !spec.optional && values[spec.name] == nil && !problems.contains(where: { $0.pointer == "/" + spec.name }) {
            problems.append(("/" + spec.name, "The required parameter '\(spec.name)' is missing."))
        }
        return (values, problems)
    }

    /// The text `value` stands for when it is JSON of the kind's type.
    private static func text(_ value: JSONValue, as kind: ParameterSpec.Kind) -> String? {
        switch (kind, value) {
        case (.int, .number(let number)):
            number.utf8.allSatisfy { $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ? number : nil
        case (.bool, .bool(let flag)): flag ? "true" : "false"
        case (.string, .string(let text)), (.uuid, .string(let text)), (.enumeration, .string(let text)): text
        default: nil
        }
    }

    private static func article(_ kind: ParameterSpec.Kind) -> String {
        switch kind {
        case .int: "an integer"
        case .bool: "true or false"
        case .uuid: "a UUID string"
        case .string: "a string"
        case .enumeration(let values): "one of \(values.joined(separator: ", "))"
        }
    }
}

extension TypedValue {
    /// The text a link carries for this value (what `ParameterSpec.convert` reads back to it).
    public var text: String {
        switch self {
        case .string(let text), .uuid(let text): text
        case .int(let number): String(number)
        case .bool(let flag): flag ? "true" : "false"
        }
    }
}
