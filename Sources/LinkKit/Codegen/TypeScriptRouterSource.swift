/// The TypeScript router (docs/CODEGEN.md).
struct TypeScriptRouterSource {
    let table: RouterTable
    let etag: String
    var text: String { RouterSource.header(table, etag: etag, language: .typescript) }
}
