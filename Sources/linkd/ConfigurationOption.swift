/// One setting of the database-using commands (`serve`, `migrate`, `keys`, `workspaces`): its flag, its
/// environment variable, its kind and the field of `Configuration` it sets, with one line or two of help.
///
/// The row is the option's only definition: the parser (`Configuration.init`), the help of every command, and
/// docs/CONFIGURATION.md (`linkd options --markdown`) all read `Configuration.options`. Its default is not
/// written here: it is the field's value in `Configuration()`, which is the default of the library type the
/// field belongs to (`ServerConfiguration`, `HitsConfiguration`, `ServiceConfiguration`).
struct ConfigurationOption: Sendable {
    /// The flag without `--`: `resolve-cache`.
    let name: String
    /// The environment variable read when the flag is absent: `LINKD_RESOLVE_CACHE`.
    let environment: String
    /// `N`, `SECONDS`, `on|off`, ...
    let placeholder: String
    /// What the option does, in the help's words.
    let help: String
    /// The default as the help and the docs show it.
    let defaultText: String
    /// Whether the flag may be given more than once: its values are then read as one comma-separated list.
    let repeatable: Bool
    /// Parses `text` and sets the field; throws `Arguments.UsageError` naming the option and the bad text.
    let apply: @Sendable (inout Configuration, String) throws -> Void

    /// An option setting `field` from text of `kind`. `unset` describes the default when the field's default
    /// formats as nothing (an empty list: "CORS off").
    init<Value: Sendable>(
        _ name: String, _ environment: String, _ kind: OptionKind<Value>,
        _ field: any WritableKeyPath<Configuration, Value> & Sendable, unset: String = "none", repeatable: Bool = false,
        help: String
    ) {
        let formatted = kind.format(Configuration()[keyPath: field])
        self.init(
            name, environment, kind, help: help, defaultText: formatted.isEmpty ? unset : formatted,
            repeatable: repeatable
        ) { configuration, value in
            configuration[keyPath: field] = value
        }
    }

    /// An option setting an optional `field`, nil (`unset`, which says what happens then) unless given.
    init<Value: Sendable>(
        _ name: String, _ environment: String, _ kind: OptionKind<Value>,
        _ field: any WritableKeyPath<Configuration, Value?> & Sendable, unset: String, help: String
    ) {
        let defaultValue = Configuration()[keyPath: field]
        self.init(name, environment, kind, help: help, defaultText: defaultValue.map(kind.format) ?? unset) { configuration, value in
            configuration[keyPath: field] = value
        }
    }

    private init<Value: Sendable>(
        _ name: String, _ environment: String, _ kind: OptionKind<Value>, help: String, defaultText: String,
        repeatable: Bool = false, set: @escaping @Sendable (inout Configuration, Value) -> Void
    ) {
        self.name = name
        self.environment = environment
        self.placeholder = kind.placeholder
        self.help = help
        self.defaultText = defaultText
        self.repeatable = repeatable
        apply = { configuration, text in
            guard let value = try kind.parse(text) else {
                throw Arguments.UsageError(description: "\(name) must be \(kind.expectation), not '\(text)'")
            }
            set(&configuration, value)
        }
    }
}
