import Foundation

/// How an option's text becomes its typed value, and how a value is written back (the defaults in the help and
/// in docs/CONFIGURATION.md). One kind per type of value, so every option of a type parses, refuses and reads
/// alike: `--threads`, `--connection-limit` and `--resolve-cache` are all `integer(in:of:)`.
struct OptionKind<Value: Sendable>: Sendable {
    /// What the help shows after the flag: `N`, `SECONDS`, `on|off`, `DIR`, `LIST`.
    let placeholder: String
    /// What a valid value is, for the usage error: "a number of seconds from 0 to 86400".
    let expectation: String
    /// The value of `text`; nil when it is not one (the usage error then says `expectation`). An error thrown
    /// here is reported as it is, for kinds that can say which part of a list is wrong.
    let parse: @Sendable (String) throws -> Value?
    /// The value as an operator would write it; empty for "nothing set".
    let format: @Sendable (Value) -> String
}

extension OptionKind where Value == Int {
    /// A whole number in `range`; `unit` names what it counts ("connections"), nil for a plain number.
    static func integer(in range: ClosedRange<Int>, of unit: String? = nil, placeholder: String = "N") -> Self {
        OptionKind(
            placeholder: placeholder,
            expectation: "a number \(unit.map { "of \($0) " } ?? "")from \(range.lowerBound) to \(range.upperBound)",
            parse: { text in Int(text).flatMap { range.contains($0) ? $0 : nil } },
            format: { String($0) })
    }

    /// A duration in whole seconds, in `range` (0 usually meaning "none").
    static func seconds(in range: ClosedRange<Int>) -> Self {
        integer(in: range, of: "seconds", placeholder: "SECONDS")
    }
}

extension OptionKind where Value == Bool {
    /// An on/off setting: `on`, `true`, `yes`, `1` or `off`, `false`, `no`, `0`, in any case.
    static var onOff: Self {
        OptionKind(
            placeholder: "on|off", expectation: "on or off (true or false)",
            parse: { text in
                switch text.lowercased() {
                case "on", "true", "yes", "1": true
                case "off", "false", "no", "0": false
                default: nil
                }
            },
            format: { $0 ? "on" : "off" })
    }
}

extension OptionKind where Value == String {
    /// Any text, taken as it is (checked later by whoever uses it: a database URL by libpq).
    static func text(_ placeholder: String) -> Self {
        OptionKind(placeholder: placeholder, expectation: "text", parse: { $0 }, format: { $0 })
    }
}

extension OptionKind where Value == URL {
    /// A file system directory, relative to the working directory unless absolute.
    static var directory: Self {
        OptionKind(
            placeholder: "DIR", expectation: "a directory", parse: { URL(fileURLWithPath: $0) },
            format: { $0.relativePath.hasPrefix("/") ? $0.relativePath : "./" + $0.relativePath })
    }
}

extension OptionKind {
    /// One of `choices`, by name, in any case.
    static func choice(_ choices: [(name: String, value: Value)], placeholder: String) -> Self where Value: Equatable {
        OptionKind(
            placeholder: placeholder, expectation: "one of " + choices.map(\.name).joined(separator: ", "),
            parse: { text in choices.first { $0.name == text.lowercased() }?.value },
            format: { value in choices.first { $0.value == value }?.name ?? "" })
    }

    /// A value written in a syntax of its own (`HOST:PORT`, a CIDR list), read by `parse` and written back by
    /// `format`.
    static func parsed(
        _ placeholder: String, expecting expectation: String, _ parse: @escaping @Sendable (String) throws -> Value?,
        format: @escaping @Sendable (Value) -> String
    ) -> Self {
        OptionKind(placeholder: placeholder, expectation: expectation, parse: parse, format: format)
    }
}

extension OptionKind where Value == [String] {
    /// A comma-separated list (blanks around entries and empty entries are skipped) whose every entry
    /// `isValid`; `refusal` says what is wrong with the first entry that is not.
    static func list(
        of placeholder: String, isValid: @escaping @Sendable (String) -> Bool, refusal: @escaping @Sendable (String) -> String
    ) -> Self {
        OptionKind(
            placeholder: placeholder, expectation: "a comma-separated list",
            parse: { text in
                let entries = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                if let bad = entries.first(where: { !isValid($0) }) { throw Arguments.UsageError(description: refusal(bad)) }
                return entries
            },
            format: { $0.joined(separator: ",") })
    }
}
