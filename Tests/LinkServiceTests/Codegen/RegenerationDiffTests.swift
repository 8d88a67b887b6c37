import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Generated code a team can review (docs/CODEGEN.md): the router table reads as named values, each rule written
/// once where it stands in its domain, so adding one rule changes the rule's own line and the ETag and renumbers
/// nothing; parameters are declared required first.
@Suite struct RegenerationDiffTests {
    @Test func parametersAreDeclaredRequiredFirst() throws {
        try TestService.with { service in
            let workspace = try CodegenWorkspace(service)
            #expect(try workspace.codegen("swift").text.contains("    case search(q: String, exact: Bool? = nil)\n"))
            #expect(
                try workspace.codegen("kotlin").text.contains(
                    "    data class Search @JvmOverloads constructor(val q: String, val exact: Boolean? = null) : LinkDestination()\n"))
            #expect(
                try workspace.codegen("typescript").text.contains(#"  | { type: "search"; params: { "q": string; "exact"?: boolean } }"#))
        }
    }

    @Test(arguments: ["ios", "android"]) func addingOneRuleChangesItsLineAndTheETag(platform: String) throws {
        try TestService.with { service in
            let workspace = try CodegenWorkspace(service, platform: platform)
            let languages = ["swift", "kotlin", "typescript"]
            let before = try languages.map { try workspace.codegen($0).text }
            // In the middle of links.example.com's rules: every later rule and domain would be renumbered by an index.
            try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/domains/links.example.com/rules", key: workspace.key,
                    json: """
                        {"apps":["\(workspace.app)"],"path":"/gadget/{id}","destination":{"type":"widgetDetail"},"position":3}
                        """))
            let after = try languages.map { try workspace.codegen($0).text }
            for (language, (old, new)) in zip(languages, zip(before, after)) {
                let difference = new.split(separator: "\n", omittingEmptySubsequences: false)
                    .difference(from: old.split(separator: "\n", omittingEmptySubsequences: false))
                let removed = difference.removals.map { change -> Substring in if case .remove(_, let line, _) = change { line } else { "" }
                }
                let added = difference.insertions.map { change -> Substring in if case .insert(_, let line, _) = change { line } else { "" }
                }
                // The header's ETag and the file's `etag` constant.
                func isETag(_ line: Substring) -> Bool { line.contains("Rules ETag: ") || line.lowercased().contains("etag = ") }
                #expect(removed.count == 2 && removed.allSatisfy(isETag), "\(language): removed \(removed.joined(separator: "\n"))")
                #expect(added.count == 3 && added.filter(isETag).count == 2, "\(language): added \(added.joined(separator: "\n"))")
                #expect(added.filter { $0.contains("/gadget/") }.count == 1, "\(language): added \(added.joined(separator: "\n"))")
            }
        }
    }
}
