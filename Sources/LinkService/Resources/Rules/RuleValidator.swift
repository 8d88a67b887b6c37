import Foundation
import HTTPServer
import LinkKit
import Postgres

/// Validates a domain's rule list as a whole before anything is saved: the apps exist in the workspace,
/// every app of a rule declares the rule's destination type and every required parameter is bound, and
/// the association file the list generates lints clean and stays under Apple's 128 KB.
enum RuleValidator {
    struct Outcome {
        let compiled: CompiledDomain
        /// Lint findings of the generated file (errors were already thrown).
        let findings: [LintFinding]
    }

    /// - Parameters:
    ///   - rules: the proposed list, with the JSON pointer each rule came from.
    /// - Throws: `ServiceError.validation` listing every problem with its pointer.
    static func validate(_ rules: [(id: UUID, input: RuleInput, pointer: String)], domain: Domain, on connection: Connection) throws -> Outcome {
        let errors = FieldErrors()
        // One read of every app the file can name: the rules' apps and those of webcredentials/appclips.
        let ids = Set(rules.flatMap(\.input.apps)).union(domain.settings.webcredentials).union(domain.settings.appclips)
        let apps = try DomainLoader.apps(Array(ids), workspace: domain.workspaceID, on: connection)
        let known = Dictionary(apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for rule in rules {
            for (index, app) in rule.input.apps.enumerated() where known[app.canonicalText] == nil {
                errors.add(JSONPointer.appending(JSONPointer.appending(rule.pointer, "apps"), index), "No app \(app.canonicalText) in this workspace.")
            }
            guard let binding = rule.input.destination else { continue }
            let captures = rule.input.rule(id: rule.id).captureNames
            for app in rule.input.apps.compactMap({ known[$0.canonicalText] }) {
                let destinationPointer = JSONPointer.appending(rule.pointer, "destination")
                guard let type = app.destinations[binding.type] else {
                    errors.add(JSONPointer.appending(destinationPointer, "type"),
                               "The app \(app.identifier) has no destination type '\(binding.type)'; create it under /v1/apps/\(app.id)/destinations.")
                    continue
                }
                for problem in binding.problems(with: type, captures: captures) {
                    errors.add(destinationPointer, "\(problem) (app \(app.identifier))")
                }
            }
        }
        try errors.check()
        let compiled = CompiledDomain(settings: domain.settings.settings(hostname: domain.hostname), apps: apps,
                                      rules: rules.map { $0.input.rule(id: $0.id) })
        let findings = AASALinter.lint(json: compiled.aasa.json)
        for finding in findings where finding.severity == .error {
            errors.add(pointer(of: finding, in: compiled, rules: rules), finding.message)
        }
        let cost = compiled.scanCost
        if let crossing = cost.crossing {
            errors.add(crossing < rules.count ? rules[crossing].pointer : "",
                       "Matching a URL against these rules could cost \(cost.weight) comparisons per byte of it, more than the \(CompiledDomain.maximumScanWeight) a domain allows, from this rule on: what a pattern has between two '*'s is looked for at every position of the URL. Give the rules distinct literal prefixes ('/items/*') or literal suffixes ('*.pdf').")
        }
        let size = compiled.aasaBytes.count
        if size > AASAFile.maximumSize {
            errors.add("", "The generated apple-app-site-association file would be \(size) bytes; iOS rejects files over \(AASAFile.maximumSize) bytes (128 KB). Merge rules or use wildcards.")
        }
        try errors.check()
        return Outcome(compiled: compiled, findings: findings)
    }

    /// The request pointer a lint finding on the generated file refers to: `/applinks/details/D/components/C…`
    /// becomes the pointer of the rule that wrote that component.
    static func pointer(of finding: LintFinding, in compiled: CompiledDomain, rules: [(id: UUID, input: RuleInput, pointer: String)]) -> String {
        let parts = finding.pointer.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count >= 6, parts[1] == "applinks", parts[2] == "details", parts[4] == "components",
           let detail = Int(parts[3]), let component = Int(parts[5]),
           let position = compiled.rulePosition(detail: detail, component: component), position < rules.count {
            return rules[position].pointer
        }
        return ""
    }
}
