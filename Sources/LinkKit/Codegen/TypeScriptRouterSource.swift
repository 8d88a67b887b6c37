/// The TypeScript router (docs/CODEGEN.md): `LinkDestination` as a discriminated union in resolve's JSON
/// shape, `LinkRouter.route` and `build`, `toJSON`, `decodeDestination`, `PendingLink`. Checks with
/// `tsc --strict` (target ES2017 or later).
struct TypeScriptRouterSource {
    let table: RouterTable
    let etag: String

    var text: String {
        let quote = CodeDialect.typescript.quote
        var out = RouterSource.header(table, etag: etag, language: .typescript)
        out += "\n/** The app's destinations (resolve's typed destinations, in its JSON shape), and resolve's error destination. */\n"
        out += "export type LinkDestination =\n"
        for destination in table.destinations {
            let params = destination.parameters.map { spec -> String in
                let type: String
                switch spec.kind {
                case .int: type = "number"
                case .string, .uuid: type = "string"
                case .bool: type = "boolean"
                case .enumeration(let values): type = values.map(quote).joined(separator: " | ")
                }
                return "\(quote(spec.name))\(spec.optional ? "?" : ""): \(type)"
            }
            out += "  | { type: \(quote(destination.name)); params: { \(params.joined(separator: "; ")) } }\n"
        }
        out += "  | { error: { code: string; param?: string; detail: string } };\n\n"
        out += "const ETAG = \(quote(etag));\n\n"
        out += "const table: Table = " + table.value.source(.typescript) + ";\n\n"
        out += TypeScriptRouterRuntime.text
        return out
    }
}
