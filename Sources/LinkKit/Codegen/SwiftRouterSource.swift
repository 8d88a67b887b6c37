/// The Swift router: `enum LinkDestination`, `LinkRouter.route(_:)` (a `URL` or its text), `build(_:)`, `json`,
/// `LinkInbox` and `LinkDeferredClaim`. Foundation is imported (`URL`, `UUID`, `NSLock`, `URLSession`).
struct SwiftRouterSource: RouterEmitter {
    static let language = RouterLanguage.swift
    let table: RouterTable
    let etag: String
    /// Each destination's case, each enum parameter's nested type, each destination's parameter labels (`DestinationNames.swift`).
    let names: DestinationNames

    /// An iOS app's file has no Android matcher; an Android app's decides as Android does (docs/CODEGEN.md).
    var platformRuntime: String {
        "\n\n" + (table.platform == .android ? SwiftAndroidMatcher.text : SwiftIOSMatcher.text)
    }

    var declarations: String {
        var out = "\nimport Foundation\n#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif\n"
        out += "\n/// The app's destinations (resolve's typed destinations), and resolve's error destination. `Hashable` for\n"
        out += "/// `NavigationPath`, `Codable` in resolve's JSON shape (the extension after the table).\n"
        out += "public enum LinkDestination: Hashable, Sendable {\n"
        for destination in table.destinations {
            let params = RouterSource.declared(destination).map {
                "\(names.parameter($0, in: destination)): \(type(of: $0, in: destination))\($0.optional ? "? = nil" : "")"
            }
            out += "    case \(names.type(destination))" + (params.isEmpty ? "" : "(" + params.joined(separator: ", ") + ")") + "\n"
        }
        out += "    /// A link that opens the app but whose destination cannot be built: the parameter concerned and why.\n"
        out += "    case invalid(code: String, param: String?, detail: String)\n"
        for (destination, spec, values) in RouterSource.enumParameters(table) {
            out += "\n    public enum \(names.enumType(spec, in: destination)): String, Sendable, CaseIterable {\n"
            for (caseName, value) in zip(RouterNames.enumCases(values, upperCase: false, avoiding: RouterNames.swiftEnumCases), values) {
                out += "        case \(caseName) = \(quote(value))\n"
            }
            out += "    }\n"
        }
        out += "}\n\n"
        out += makeAndValues
        out += "\n/// Routes this app's universal links and custom-scheme URLs as linkd's resolve does, without the network.\n"
        out += "public enum LinkRouter {\n    /// The ETag of the rules this file was generated from.\n"
        out += "    public static let etag = \(quote(etag))\n"
        out += "    /// The domains whose iOS landing pages put the claim link on the pasteboard (`LinkDeferredClaim`).\n"
        out += "    public static let claimDomains: [String] = [" + table.claimDomains.map(quote).joined(separator: ", ") + "]\n"
        out += "    /// This app's id and platform, as `LinkResolveClient` names them to linkd.\n"
        out += "    public static let appID = \(quote(table.appID))\n"
        out += "    public static let platform = \(quote(table.platform.rawValue))\n}\n\n"
        out += "extension LinkRouter {\n    static let table = "
        return out
    }

    private var makeAndValues: String {
        var make =
            "extension LinkDestination {\n    /// The destination of a type from converted values, one per parameter of its spec in the spec's order (nil:\n"
            + "    /// absent); the error destination for a value the case cannot take.\n"
        make += "    static func make(_ type: String, _ values: [LinkRouter.Value?]) -> LinkDestination? {\n        switch type {\n"
        var types = "    /// The destination type's name; nil for `invalid`.\n    public var type: String? {\n        switch self {\n"
        var values =
            "    /// The parameters in resolve's order (by name), absent optionals left out.\n    var values: [(String, LinkRouter.Value)] {\n        switch self {\n"
        for destination in table.destinations {
            let quoted = quote(destination.name)
            // Each value read by position (`p0`...) with a `guard`: no force unwrap, no trapping conversion.
            let declared = RouterSource.declared(destination)
            let arguments = declared.enumerated().map { "\(names.parameter($1, in: destination)): p\($0)" }
            make += "        case \(quoted):\n"
            for (index, spec) in declared.enumerated() {
                // By the parameter's place in the spec (`LinkRouter.Spec.params`, the table's order).
                let key = "values[\(destination.parameters.firstIndex { $0.name == spec.name } ?? 0)]"
                let read =
                    spec.optional
                    ? "LinkDestination.optional(\(key), { \(read(spec, in: destination)) })"
                    : "\(key).flatMap({ \(read(spec, in: destination)) })"
                make += "            guard let p\(index) = \(read) else { return .unreadable(\(quote(spec.name)), \(key)) }\n"
            }
            make +=
                "            return .\(names.type(destination))" + (arguments.isEmpty ? "" : "(" + arguments.joined(separator: ", ") + ")")
                + "\n"
            types += "        case .\(names.type(destination)): return \(quoted)\n"
            if destination.parameters.isEmpty {
                values += "        case .\(names.type(destination)): return []\n"
                continue
            }
            // Bound by position (`p0`, `p1`...): a parameter's own name could shadow a type the code names. The
            // positions are the declaration's; the values are appended in resolve's order.
            let order = declared.map(\.name)
            values += "        case .\(names.type(destination))(" + order.indices.map { "let p\($0)" }.joined(separator: ", ") + "):\n"
            values += "            var values: [(String, LinkRouter.Value)] = []\n"
            for spec in destination.parameters {
                let key = quote(spec.name)
                let variable = "p\(order.firstIndex(of: spec.name) ?? 0)"
                let written = write(spec, variable)
                values +=
                    spec.optional
                    ? "            if let \(variable) { values.append((\(key), \(written))) }\n"
                    : "            values.append((\(key), \(written)))\n"
            }
            values += "            return values\n"
        }
        make += "        default: return nil\n        }\n    }\n\n"
        types += "        case .invalid: return nil\n        }\n    }\n\n"
        values += "        case .invalid: return []\n        }\n    }\n}\n"
        return make + types + values
    }

    private func type(of spec: ParameterSpec, in destination: DestinationType) -> String {
        type(of: spec) { _ in names.enumType(spec, in: destination) }
    }

    /// The closure body reading `spec` from a value `$0` (converted by the router): nil when the Swift type cannot hold it.
    private func read(_ spec: ParameterSpec, in destination: DestinationType) -> String {
        switch spec.kind {
        case .int: "$0.exactInt"
        case .bool: "$0.bool"
        case .enumeration: "\(names.enumType(spec, in: destination))(rawValue: $0.text)"
        case .uuid: "$0.uuid"
        case .string: "$0.text"
        }
    }

    private func write(_ spec: ParameterSpec, _ variable: String) -> String {
        switch spec.kind {
        case .int: ".int(Int64(\(variable)))"
        case .string: ".string(\(variable))"
        case .uuid: ".uuid(\(variable).uuidString.lowercased())"
        case .bool: ".bool(\(variable))"
        case .enumeration: ".string(\(variable).rawValue)"
        }
    }
}
