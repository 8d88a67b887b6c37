/// The Kotlin router (docs/CODEGEN.md): `sealed class LinkDestination` (a sealed class, not a sealed interface:
/// those need Kotlin 1.5) with data classes, the error case `Invalid` and nested enum classes with a `value`,
/// `LinkRouter.route` and `build`, `toJSON()`, `LinkDestination.fromResolveJSON`, `LinkInbox` and
/// `LinkDeferredClaim`. Only the Kotlin standard library and the JDK's `java.util` and `java.net` are used;
/// compiles with Kotlin 1.3 or later, warnings as errors. In the app's package, callable from Java (`@JvmStatic`,
/// `@JvmOverloads`, `@JvmField`).
struct KotlinRouterSource: RouterEmitter {
    static let language = RouterLanguage.kotlin
    let table: RouterTable
    let etag: String
    /// Each destination's class, each enum parameter's enum class, each destination's property names (`DestinationNames.kotlin`).
    let names: DestinationNames
    /// The package the file's classes are in; nil for the root package (which Java code cannot import).
    let kotlinPackage: AndroidPackageName?

    /// `package`'s parts as Kotlin reads them: a part that is a Kotlin keyword (`fun`, `object`) in backticks.
    static func declared(_ package: AndroidPackageName) -> String {
        package.rawValue.split(separator: ".").map { RouterNames.kotlinKeywords.contains(String($0)) ? "`\($0)`" : String($0) }.joined(
            separator: ".")
    }

    var declarations: String {
        var out = kotlinPackage.map { "package \(Self.declared($0))\n" } ?? ""
        out += "\n/** The app's destinations (resolve's typed destinations), and resolve's error destination. */\n"
        out += "sealed class LinkDestination {\n"
        for destination in table.destinations {
            let params = RouterSource.declared(destination).map {
                "val \(names.parameter($0, in: destination)): \(type(of: $0, in: destination))\($0.optional ? "? = null" : "")"
            }
            out +=
                params.isEmpty
                ? "    object \(names.type(destination)) : LinkDestination() { override fun toString() = \(quote(names.type(destination))) }\n"
                : "    data class \(names.type(destination))\(overloads(destination) ? " @JvmOverloads constructor" : "")("
                    + params.joined(separator: ", ") + ") : LinkDestination()\n"
        }
        out += "    /** A link that opens the app but whose destination cannot be built: the parameter concerned and why. */\n"
        out += "    data class Invalid(val code: String, val param: String?, val detail: String) : LinkDestination()\n"
        for (destination, spec, values) in RouterSource.enumParameters(table) {
            let cases = zip(RouterNames.enumCases(values, upperCase: true, avoiding: RouterNames.kotlinEnumEntries), values).map {
                "\($0)(\(quote($1)))"
            }
            out +=
                "\n    enum class \(names.enumType(spec, in: destination))(val value: String) { " + cases.joined(separator: ", ") + " }\n"
        }
        out += members
        out += "\n/** Routes this app's universal links and custom-scheme URLs as linkd's resolve does, without the network. */\n"
        out += "object LinkRouter {\n    /** The ETag of the rules this file was generated from. */\n"
        out += "    const val etag = \(quote(etag))\n\n"
        out += "    /** The domains whose iOS landing pages put the claim link on the pasteboard (`LinkDeferredClaim`). */\n"
        out +=
            "    @JvmField val claimDomains: List<String> = "
            + (table.claimDomains.isEmpty ? "emptyList()" : "listOf(" + table.claimDomains.map(quote).joined(separator: ", ") + ")")
            + "\n\n"
        out += "    /** This app's id and platform, as `LinkResolveClient` names them to linkd. */\n"
        out += "    const val appID = \(quote(table.appID))\n"
        out += "    const val platform = \(quote(table.platform.rawValue))\n\n"
        out += "    private val table = "
        return out
    }

    /// `type`, `values`, `toJSON`, `requiresSignIn`, and the companion's decoder and `make`.
    private var members: String {
        var types = "\n    /** The destination type's name; null for `Invalid`. */\n    val type: String? get() = when (this) {\n"
        var values =
            "    /** The parameters (by name), absent optionals left out. */\n    internal val values: List<Pair<String, Any>> get() = when (this) {\n"
        var make = "        internal fun make(type: String, values: Map<String, Any>): LinkDestination? = when (type) {\n"
        for destination in table.destinations {
            let quoted = quote(destination.name)
            let test = destination.parameters.isEmpty ? names.type(destination) : "is " + names.type(destination)
            types += "        \(test) -> \(quoted)\n"
            let written = destination.parameters.map { spec -> String in
                let value =
                    "this.\(names.parameter(spec, in: destination))"
                    + (spec.optional ? "?.let { Pair(\(quote(spec.name)), it\(raw(spec))) }" : "")
                return spec.optional ? value : "Pair(\(quote(spec.name)), \(value)\(raw(spec)))"
            }
            values +=
                "        \(test) -> " + (written.isEmpty ? "emptyList()" : "listOfNotNull(" + written.joined(separator: ", ") + ")") + "\n"
            // Each value read into a local first: positional arguments left up to hundreds of values on the stack
            // around every inlined `let`, which Kotlin spills and restores each time (a method past the JVM's 64 KB).
            let declared = RouterSource.declared(destination)
            let reads = declared.enumerated().map { "val p\($0) = \(read($1, in: destination)); " }.joined()
            make +=
                "            \(quoted) -> "
                + (declared.isEmpty
                    ? names.type(destination)
                    : "{ " + reads + names.type(destination) + "(" + declared.indices.map { "p\($0)" }.joined(separator: ", ") + ") }")
                + "\n"
        }
        types += "        is Invalid -> null\n    }\n"
        values += "        is Invalid -> emptyList()\n    }\n"
        make += "            else -> null\n        }\n"
        return types + values + """
                /** The destination in resolve's `destination` JSON shape, byte for byte. */
                fun toJSON(): String = LinkRouter.json(this)
                /** Whether links to this destination are for signed-in users (`LinkInbox` holds them until one is). */
                val requiresSignIn: Boolean get() = LinkRouter.requiresSignIn(type)

                companion object {
                    /** Reads a resolve answer (or its `destination` member alone) into a destination; null when it has none. */
                    @JvmStatic fun fromResolveJSON(json: String): LinkDestination? = LinkRouter.decode(json)

            """ + make + "    }\n}\n"
    }

    /// Whether Java gets constructors without the optional parameters (`@JvmOverloads`): when there are any, and
    /// the constructor fits the JVM's 255 argument slots (a `Long` takes two, `this` one) with room for the
    /// overloads' own; a larger one is called with every parameter.
    private func overloads(_ destination: DestinationType) -> Bool {
        let slots = destination.parameters.reduce(1) { total, spec in
            if case .int = spec.kind, !spec.optional { return total + 2 }
            return total + 1
        }
        return destination.parameters.contains(where: \.optional) && slots < 250
    }

    private func type(of spec: ParameterSpec, in destination: DestinationType) -> String {
        type(of: spec) { _ in names.enumType(spec, in: destination) }
    }

    /// `.value` for an enum, the text of a UUID: the JSON carries the value's text.
    private func raw(_ spec: ParameterSpec) -> String {
        switch spec.kind {
        case .enumeration: ".value"
        case .uuid: ".toString()"
        default: ""
        }
    }

    /// The expression reading `spec` from `values` (converted by the router, so present and of its type).
    private func read(_ spec: ParameterSpec, in destination: DestinationType) -> String {
        let key = "values[\(quote(spec.name))]"
        let optional = spec.optional ? "?" : ""
        switch spec.kind {
        case .int: return "\(key) as Long\(optional)"
        case .bool: return "\(key) as Boolean\(optional)"
        case .enumeration:
            let type = names.enumType(spec, in: destination)
            return spec.optional
                ? "(\(key) as String?)?.let { v -> \(type).values().first { it.value == v } }"
                : "\(type).values().first { it.value == \(key) }"
        case .uuid:
            return spec.optional
                ? "(\(key) as String?)?.let { java.util.UUID.fromString(it) }" : "java.util.UUID.fromString(\(key) as String)"
        case .string: return "\(key) as String\(optional)"
        }
    }
}
