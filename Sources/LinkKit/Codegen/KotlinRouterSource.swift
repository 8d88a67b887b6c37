/// The Kotlin router (docs/CODEGEN.md).
struct KotlinRouterSource {
    let table: RouterTable
    let etag: String
    var text: String { RouterSource.header(table, etag: etag, language: .kotlin) }
}
