/// A generated router's language.
public enum RouterLanguage: String, Sendable, CaseIterable {
    case swift, kotlin, typescript

    /// The file name `linkd codegen` suggests.
    public var fileName: String {
        switch self {
        case .swift: "Links.swift"
        case .kotlin: "Links.kt"
        case .typescript: "links.ts"
        }
    }

    /// How a router file in the language writes what every router file has.
    struct Form {
        let dialect: CodeDialect
        /// The runtime, embedded from `Runtime/` by the EmbedFiles plugin.
        let runtime: String
        /// The table literal's indentation, and what follows it before the runtime.
        let tableIndent: String
        let tableEnd: String
        /// The types of `int`, `string`, `uuid` and `bool` parameters.
        let scalarTypes: (int: String, text: String, uuid: String, bool: String)
    }

    var form: Form {
        switch self {
        case .swift:
            Form(
                dialect: .swift,
                runtime: [
                    SwiftRouterRuntime.text, SwiftLinkInbox.text, SwiftDeferredClaim.text, SwiftLinkEvents.text, SwiftLinkResolve.text,
                ]
                .joined(separator: "\n\n"),
                tableIndent: "    ", tableEnd: "\n}\n\n", scalarTypes: ("Int", "String", "UUID", "Bool"))
        case .kotlin:
            Form(
                dialect: .kotlin,
                runtime: [KotlinRouterRuntime.text, KotlinLinkInbox.text, KotlinLinkEvents.text, KotlinLinkResolve.text]
                    .joined(separator: "\n\n"),
                tableIndent: "    ", tableEnd: "\n\n", scalarTypes: ("Long", "String", "java.util.UUID", "Boolean"))
        case .typescript:
            Form(
                dialect: .typescript,
                runtime: [TypeScriptRouterRuntime.text, TypeScriptLinkInbox.text, TypeScriptLinkEvents.text, TypeScriptLinkResolve.text]
                    .joined(separator: "\n\n"),
                tableIndent: "", tableEnd: ";\n\n", scalarTypes: ("number", "string", "string", "boolean"))
        }
    }
}
