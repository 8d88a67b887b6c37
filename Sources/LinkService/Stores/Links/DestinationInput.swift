import LinkKit

/// A typed destination as a request names it, `{"type", "params"}`: read once for `POST /v1/links/build` and for
/// a link's `destination`, and checked against the destination type's schema the same way for both.
struct DestinationInput {
    /// The destination type's name; nil when absent (the error is recorded).
    let type: String?
    /// The parameters as sent (`null` members included: they read as absent).
    let params: [JSONMember]
    /// Where `type` and `params` are, for errors found later.
    let typePointer: String
    let paramsPointer: String

    /// Reads the object member `key` of `body`; nil when it is absent, `null` or not an object (an error when
    /// `required` or not an object).
    init?(reading body: inout JSONObjectReader, _ key: String = "destination", required: Bool) {
        guard var destination = body.object(key, required: required) else { return nil }
        type = destination.string("type", required: true, limit: .name)
        typePointer = destination.at("type")
        paramsPointer = destination.at("params")
        var members: [JSONMember] = []
        switch destination.value("params") {
        case nil, .null?: break
        case .object(let found)?: members = found
        case let other?: body.errors.add(paramsPointer, "'params' must be an object, not \(other.typeName).")
        }
        params = members
        destination.finish()
    }

    /// A link's stored destination (`json`), checked again when its app changes; errors point into `/destination`.
    init(stored: JSONValue, at pointer: String = "/destination") {
        type = stored["type"]?.stringValue
        if case .object(let members)? = stored["params"] { params = members } else { params = [] }
        typePointer = pointer + "/type"
        paramsPointer = pointer + "/params"
    }

    /// Where the `app` beside this destination is.
    var appPointer: String { String(typePointer.dropLast("/destination/type".count)) + "/app" }

    /// The parameters checked against `declared` (`DestinationType.values`, as resolve reads a captured value), each
    /// problem recorded in `errors` at its pointer under `params`. The values are usable only when none was.
    func check(against declared: DestinationType, _ errors: FieldErrors) -> [String: TypedValue] {
        let checked = declared.values(params)
        for problem in checked.problems { errors.add(paramsPointer + problem.pointer, problem.detail) }
        return checked.values
    }

    /// The stored form, `{"type", "params"}` (`null` parameters left out).
    var json: JSONValue {
        .object(["type": .string(type ?? ""), "params": .object(params.filter { $0.value != .null })])
    }
}
