/// How a rule builds its destination: the destination type, and for each parameter either a capture of
/// the rule's templates or a constant. Parameters not bound explicitly take the capture of the same name.
public struct DestinationBinding: Sendable, Hashable {
    /// Where one parameter's value comes from.
    public enum Source: Sendable, Hashable {
        case capture(String)
        /// A constant, as text; converted to the parameter's type like a captured value.
        case constant(String)
    }

    public let type: String
    /// Parameter name → source, sorted by name.
    public let params: [String: Source]

    public init(type: String, params: [String: Source] = [:]) {
        self.type = type
        self.params = params
    }

    /// Builds the typed destination for one app from the captures of a matched URL.
    /// - Parameters:
    ///   - captures: capture name → decoded value (absent captures are missing values).
    ///   - destination: the app's declaration of `type`, or nil when the app does not declare it.
    public func resolve(captures: [String: String], destination: DestinationType?) -> ResolvedDestination {
        guard let destination else {
            return .error(DestinationError(code: .unknownDestination, param: nil, detail: "The app has no destination type '\(type)'."))
        }
        var values: [(name: String, value: TypedValue)] = []
        for spec in destination.parameters {
            let text: String?
            switch params[spec.name] ?? .capture(spec.name) {
            case .capture(let name): text = captures[name].flatMap { $0.isEmpty ? nil : $0 }
            case .constant(let value): text = value
            }
            guard let text else {
                if spec.optional { continue }
                return .error(
                    DestinationError(
                        code: .missingParam, param: spec.name, detail: "The link has no value for the required parameter '\(spec.name)'."))
            }
            switch spec.convert(text) {
            case .success(let value): values.append((spec.name, value))
            case .failure(let error): return .error(error)
            }
        }
        return .destination(type: type, params: values)
    }

    /// Problems that make the binding unusable with `destination` and the captures `available`:
    /// required parameters left unbound, bindings to unknown parameters or captures, constants that do
    /// not convert. Empty when the binding is sound.
    public func problems(with destination: DestinationType, captures available: Set<String>) -> [String] {
        var problems: [String] = []
        for name in params.keys.sorted() where destination.parameter(name) == nil {
            problems.append("The destination type '\(destination.name)' has no parameter '\(name)'.")
        }
        for spec in destination.parameters {
            switch params[spec.name] {
            case .capture(let capture)?:
                if !available.contains(capture) {
                    problems.append(
                        "The parameter '\(spec.name)' is bound to the capture '{\(capture)}', which the rule's templates do not have.")
                }
            case .constant(let value)?:
                if case .failure(let error) = spec.convert(value) { problems.append(error.detail) }
            case nil:
                if !spec.optional, !available.contains(spec.name) {
                    problems.append("The required parameter '\(spec.name)' is not bound: add a capture {\(spec.name)} or a constant.")
                }
            }
        }
        return problems
    }
}
