/// The TypeScript router (docs/CODEGEN.md): `LinkDestination` as a discriminated union in resolve's JSON
/// shape, `LinkRouter.route` (a string or a `URL`) and `build`, `toJSON`, `decodeDestination`, `LinkInbox`,
/// `LinkDeferredClaim`. Checks with
/// `tsc --strict` (target ES2017 or later).
struct TypeScriptRouterSource: RouterEmitter {
    static let language = RouterLanguage.typescript
    let table: RouterTable
    let etag: String

    var declarations: String {
        var out = "\n/** The app's destinations (resolve's typed destinations, in its JSON shape), and resolve's error destination. */\n"
        out += "export type LinkDestination =\n"
        for destination in table.destinations {
            let params = RouterSource.declared(destination).map { spec in
                "\(quote(spec.name))\(spec.optional ? "?" : ""): " + type(of: spec) { $0.map(quote).joined(separator: " | ") }
            }
            out += "  | { type: \(quote(destination.name)); params: { \(params.joined(separator: "; ")) } }\n"
        }
        out += "  | { error: { code: string; param?: string; detail: string } };\n\n"
        out += "const ETAG = \(quote(etag));\n"
        out += "const CLAIM_DOMAINS: readonly string[] = [" + table.claimDomains.map(quote).joined(separator: ", ") + "];\n"
        out += "const APP_ID = \(quote(table.appID));\n"
        out += "const PLATFORM = \(quote(table.platform.rawValue));\n\n"
        out += "const linkTable: LinkTable = "
        return out
    }
}
