import Foundation
import LinkKit

extension AASACommand {
    /// `linkd aasa validate FILE [--json]`: exit 1 when lint finds an error.
    static func validate(_ arguments: Arguments) throws -> Int32 {
        guard arguments.positionals.count == 1 else { throw Arguments.UsageError(description: "usage: linkd aasa validate FILE [--json]") }
        let path = arguments.positionals[0]
        let data = try readInput(path)
        let findings = AASALinter.lint(text: String(decoding: data, as: UTF8.self))
        report(findings, file: path, json: arguments.has("json"))
        return findings.contains { $0.severity == .error } ? ExitStatus.failure : ExitStatus.success
    }

    /// Prints findings as a readable report or as `{"valid", "errors", "warnings", "findings": [...]}`.
    static func report(_ findings: [LintFinding], file: String, json: Bool) {
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.count - errors
        if json {
            Output.out(
                JSONValue.object([
                    "file": .string(file), "valid": .bool(errors == 0), "errors": .integer(errors), "warnings": .integer(warnings),
                    "findings": .array(findings.map(\.json)),
                ]).serialized)
            return
        }
        var text = ""
        for finding in findings {
            text +=
                "\(finding.severity.rawValue): \(finding.pointer.isEmpty ? "(document)" : finding.pointer): \(finding.message) [\(finding.code)]\n"
        }
        text +=
            "\(file): \(errors == 0 ? "valid" : "invalid"), \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
        Output.out(text)
    }
}
