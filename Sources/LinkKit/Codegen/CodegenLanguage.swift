/// What `GET /v1/apps/{id}/codegen/{language}` and `linkd codegen --language` generate: an app's router in one
/// of the `RouterLanguage`s, or the fixtures an app's CI checks its router with (docs/CODEGEN.md).
public enum CodegenLanguage: String, Sendable, CaseIterable {
    case swift, kotlin, typescript, fixtures

    /// The router's language; nil for the fixtures.
    public var router: RouterLanguage? { RouterLanguage(rawValue: rawValue) }

    /// The names as a sentence lists them: `swift, kotlin, typescript or fixtures`.
    public static var listed: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
