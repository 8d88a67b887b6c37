import Foundation
import LinkKit

/// `linkd assetlinks validate FILE [--package NAME --fingerprint FP] [--json]`.
enum AssetLinksCommand: Command {
    static let name = "assetlinks"
    static let summary = "validate an Android assetlinks.json file"
    static let help = """
        Usage:
          linkd assetlinks validate FILE [--package NAME --fingerprint FP] [--json]
              Lint FILE ('-' = stdin). With --package and --fingerprint, also say whether that app is granted
              delegate_permission/common.handle_all_urls. Exit 1 when there are errors or the app is not granted.

        Exit status: 0 worked, 1 invalid input, 2 usage error.
        """

    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.first == "validate" else {
            Output.err("linkd assetlinks: expected 'validate'\n\n\(help)")
            return ExitStatus.usage
        }
        return ExitStatus.of("linkd assetlinks") {
            let parsed = try Arguments(Array(arguments.dropFirst()), valued: ["package", "fingerprint"], flags: ["json"])
            guard parsed.positionals.count == 1 else { throw Arguments.UsageError(description: "usage: linkd assetlinks validate FILE") }
            let package = parsed.value("package")
            let fingerprint = parsed.value("fingerprint")
            guard (package == nil) == (fingerprint == nil) else {
                throw Arguments.UsageError(description: "--package and --fingerprint go together")
            }
            let path = parsed.positionals[0]
            let text = String(decoding: try AASACommand.readInput(path), as: UTF8.self)
            let findings = AssetLinksLinter.lint(text: text)
            var granted: Bool?
            if let package, let fingerprint {
                let name = try AndroidPackageName(package)
                let certificate = try CertificateFingerprint(normalizing: fingerprint)
                granted = ((try? AssetLinksFile.decode(text))?.grantsHandleAllURLs(packageName: name, fingerprint: certificate)) ?? false
            }
            let errors = findings.filter { $0.severity == .error }.count
            if parsed.has("json") {
                var members: [JSONMember] = [
                    JSONMember(key: "file", value: .string(path)), JSONMember(key: "valid", value: .bool(errors == 0)),
                    JSONMember(key: "errors", value: .integer(errors)),
                    JSONMember(key: "warnings", value: .integer(findings.count - errors)),
                    JSONMember(key: "findings", value: .array(findings.map(\.json))),
                ]
                if let granted { members.append(JSONMember(key: "handleAllURLs", value: .bool(granted))) }
                Output.out(JSONValue.object(members).serialized)
            } else {
                AASACommand.report(findings, file: path, json: false)
                if let granted, let package {
                    Output.out("\(package) \(granted ? "is" : "is NOT") granted \(AssetLinksFile.handleAllURLs) for that fingerprint")
                }
            }
            return errors > 0 || granted == false ? ExitStatus.failure : ExitStatus.success
        }
    }
}
