/// What `GET /v1/apps/{id}/codegen/{language}` and `linkd codegen --language` generate: an app's router in one
/// of the `RouterLanguage`s, the platform glue that hands the router's `LinkInbox` the links iOS or Android
/// opens the app with, or the fixtures an app's CI checks its router with (docs/CODEGEN.md).
public enum CodegenLanguage: String, Sendable, CaseIterable {
    case swift, kotlin, typescript
    case swiftGlue = "swift-glue"
    case kotlinGlue = "kotlin-glue"
    case fixtures

    /// The router's language; nil for the glue and the fixtures.
    public var router: RouterLanguage? { RouterLanguage(rawValue: rawValue) }

    /// The language of the router a glue file goes with; nil for the routers and the fixtures.
    public var glue: RouterLanguage? {
        switch self {
        case .swiftGlue: .swift
        case .kotlinGlue: .kotlin
        default: nil
        }
    }

    /// The file name `linkd codegen` suggests for a router or a glue file.
    public var fileName: String? {
        switch self {
        case .swiftGlue: "LinksGlue.swift"
        case .kotlinGlue: "LinksGlue.kt"
        default: router?.fileName
        }
    }

    /// The names as a sentence lists them: `swift, kotlin, typescript, swift-glue, kotlin-glue or fixtures`.
    public static var listed: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
