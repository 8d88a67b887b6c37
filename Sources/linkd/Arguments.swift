/// A parsed argument list: `--name value`, `--name=value`, boolean `--flag`, and positionals.
///
/// Parsing is strict: an option the command did not declare is a usage error, so typos never pass silently.
struct Arguments {
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var options: [String: String] = [:]
    /// Every value of each valued option, in the order given (`options` keeps the last).
    private(set) var repeated: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    /// - Parameters:
    ///   - arguments: what followed the command name.
    ///   - valued: option names (without `--`) that take a value.
    ///   - flags: option names that take none.
    /// - Throws: `UsageError` for an unknown option or a missing value.
    init(_ arguments: [String], valued: Set<String> = [], flags allowedFlags: Set<String> = []) throws {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if allowedFlags.contains(name), value == nil {
                flags.insert(name)
            } else if valued.contains(name) {
                if value == nil {
                    guard index < arguments.count else { throw UsageError(description: "option --\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                options[name] = value
                repeated[name, default: []].append(value!)
            } else {
                throw UsageError(description: "unknown option --\(name)")
            }
        }
    }

    /// The option's value, or the environment variable's, or nil.
    func value(_ name: String, environment key: String? = nil, _ environment: [String: String] = [:]) -> String? {
        if let value = options[name] { return value }
        if let key, let value = environment[key], !value.isEmpty { return value }
        return nil
    }

    /// Every value the option was given, in order; empty when absent.
    func values(_ name: String) -> [String] { repeated[name] ?? [] }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
}
