/// One language's router file (docs/CODEGEN.md). Every file is the header, then the emitter's `declarations` (the
/// destination type and the code up to the table's `=`), the router table as a literal of the language, and the
/// language's runtime (`Runtime/`), the same in every file: `RouterLanguage.Form` says how each language writes them.
protocol RouterEmitter {
    static var language: RouterLanguage { get }
    var table: RouterTable { get }
    var etag: String { get }
    var declarations: String { get }
    /// What follows the runtime for the app's platform alone (Swift's Android matcher, only in an Android app's file).
    var platformRuntime: String { get }
}

extension RouterEmitter {
    var text: String {
        let form = Self.language.form
        return RouterSource.header(table, etag: etag, generator: Self.language.rawValue) + declarations
            + table.value.source(form.dialect, indent: form.tableIndent) + form.tableEnd + form.runtime + platformRuntime
    }

    var platformRuntime: String { "" }

    /// `text` as a string literal of the language.
    func quote(_ text: String) -> String { Self.language.form.dialect.quote(text) }

    /// A parameter's type: the language's scalar type, else `enumeration` of the enum's values.
    func type(of spec: ParameterSpec, enumeration: ([String]) -> String) -> String {
        let scalars = Self.language.form.scalarTypes
        return switch spec.kind {
        case .int: scalars.int
        case .string: scalars.text
        case .uuid: scalars.uuid
        case .bool: scalars.bool
        case .enumeration(let values): enumeration(values)
        }
    }
}
