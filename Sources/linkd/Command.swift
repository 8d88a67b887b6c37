/// One `linkd` subcommand.
///
/// Exit status convention for every command: 0 when it worked, 1 when the input was invalid
/// (or the operation failed), 2 for usage errors. Results go to stdout, diagnostics to stderr.
protocol Command: Sendable {
    /// The word after `linkd` (`serve`, `aasa`, ...).
    static var name: String { get }
    /// One line for `linkd --help`.
    static var summary: String { get }
    /// The full text of `linkd <name> --help`.
    static var help: String { get }
    /// Runs the command with the arguments after its name.
    static func run(_ arguments: [String]) -> Int32
}

/// Exit statuses shared by all commands.
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 2

    /// `body`'s status; an error it throws said on stderr after `prefix` (`linkd aasa match`): a usage error's
    /// status is `usage`, any other's `failure`.
    static func of(_ prefix: String, _ body: () throws -> Int32) -> Int32 {
        do {
            return try body()
        } catch let error as Arguments.UsageError {
            Output.err("\(prefix): \(error.description)")
            return usage
        } catch {
            Output.err("\(prefix): \(error)")
            return failure
        }
    }
}
