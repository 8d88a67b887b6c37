import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// The codegen endpoints as an API: ETags that follow the rules, 304, refusals; `requiresSignIn` on
/// destinations and in resolve answers.
@Suite struct CodegenAPITests {
    @Test func etagFollowsRulesAndDestinations() throws {
        try TestService.with { service in
            let workspace = try CodegenWorkspace(service)
            let first = try workspace.codegen("swift")
            let tag = try #require(first.headers["ETag"])
            #expect(first.headers["Content-Type"] == "text/plain; charset=utf-8")
            let header = try #require(first.text.split(separator: "\n").first { $0.hasPrefix("// Rules ETag: ") }).dropFirst(
                "// Rules ETag: ".count)
            let again = try service.request(
                "GET", "/v1/apps/\(workspace.app)/codegen/swift", key: workspace.key, headers: [("If-None-Match", tag)])
            #expect(again.status == 304)
            // Weak comparison (RFC 9110 §13.1.2): the tag's weak form, in a list, matches too.
            let weak = try service.request(
                "GET", "/v1/apps/\(workspace.app)/codegen/swift", key: workspace.key, headers: [("If-None-Match", "\"other\", W/" + tag)])
            #expect(weak.status == 304)
            #expect(first.headers["Content-Disposition"] == "inline; filename=\"Links.swift\"")
            // A destination change is a new file with a new rules ETag.
            try Fixture.expect(
                200,
                service.request(
                    "PUT", "/v1/apps/\(workspace.app)/destinations/home", key: workspace.key,
                    json: #"{"requiresSignIn":true}"#))
            let changed = try workspace.codegen("swift")
            #expect(changed.headers["ETag"] != tag)
            #expect(!changed.text.contains("// Rules ETag: \(header)"))
            let typescript = try workspace.codegen("typescript")
            #expect(typescript.headers["ETag"] != changed.headers["ETag"])
            #expect(typescript.text.contains("export type LinkDestination ="))

            let kotlin = try workspace.codegen("kotlin")
            #expect(kotlin.headers["ETag"] != changed.headers["ETag"])
            #expect(kotlin.text.contains("sealed class LinkDestination {"))
            #expect(kotlin.text.contains("// Rules ETag: "))
            // An iOS app's Kotlin is in no package unless one is asked for; a Kotlin keyword among its parts is quoted.
            #expect(!kotlin.text.contains("\npackage "))
            let packaged = try workspace.codegen("kotlin?package=com.example.fun")
            #expect(packaged.text.contains("\npackage com.example.`fun`\n"))
            #expect(packaged.headers["ETag"] != kotlin.headers["ETag"])
            #expect(try workspace.codegen("kotlin-glue?package=com.example.fun").text.contains("\npackage com.example.`fun`\n"))
            let badPackage = try service.request("GET", "/v1/apps/\(workspace.app)/codegen/kotlin?package=com.1example", key: workspace.key)
            #expect(badPackage.status == 400)
            #expect(badPackage.text.contains("part '1example' must start with a letter"))
            let cobol = try service.request("GET", "/v1/apps/\(workspace.app)/codegen/cobol", key: workspace.key)
            #expect(cobol.status == 404)
            #expect(cobol.text.contains("use swift, kotlin, typescript, swift-glue, kotlin-glue or fixtures"))
            #expect(try service.request("GET", "/v1/apps/\(UUID().uuidString)/codegen/swift", key: workspace.key).status == 404)
            #expect(try service.request("GET", "/v1/apps/\(workspace.app)/codegen/swift").status == 401)
            let reader = try service.key(workspace: "codegen", scope: .read)
            #expect(try service.request("GET", "/v1/apps/\(workspace.app)/codegen/fixtures", key: reader).status == 200)
        }
    }

    /// The glue files: a second file per platform with its own name and header, following the rules' ETag; the
    /// claim domains (opted in to pasteboard claims) are in the router and its rules ETag.
    @Test func glueFilesAndClaimDomains() throws {
        try TestService.with { service in
            let workspace = try CodegenWorkspace(service)
            let swift = try workspace.codegen("swift-glue")
            #expect(swift.headers["Content-Disposition"] == "inline; filename=\"LinksGlue.swift\"")
            #expect(swift.text.contains("--language swift-glue`"))
            #expect(
                swift.text.contains("#if canImport(UIKit)") && swift.text.contains("onContinueUserActivity(NSUserActivityTypeBrowsingWeb)"))
            let kotlin = try workspace.codegen("kotlin-glue")
            #expect(kotlin.headers["Content-Disposition"] == "inline; filename=\"LinksGlue.kt\"")
            #expect(kotlin.text.contains("class LinkArrivals private constructor(") && !kotlin.text.contains(": Activity()"))
            let router = try workspace.codegen("swift")
            let rulesTag = router.text.split(separator: "\n").first { $0.hasPrefix("// Rules ETag: ") }
            #expect(rulesTag != nil && swift.text.contains(rulesTag!))
            #expect(router.text.contains(#"public static let claimDomains: [String] = ["links.example.com"]"#))
            #expect(try workspace.codegen("kotlin").text.contains(#"val claimDomains: List<String> = listOf("links.example.com")"#))
            #expect(try service.request("GET", "/v1/apps/\(workspace.app)/codegen/typescript-glue", key: workspace.key).status == 404)
            // Opting out takes the domain out of the file and changes the rules ETag.
            try Fixture.expect(
                200, service.request("PATCH", "/v1/domains/links.example.com", key: workspace.key, json: #"{"deferredClipboard":false}"#))
            try waitUntil("the catalog to have the opt-out") {
                service.application.catalog.entry(exactly: "links.example.com")?.settings.deferredClipboard == false
            }
            let after = try workspace.codegen("swift")
            #expect(after.text.contains(#"public static let claimDomains: [String] = []"#))
            #expect(!after.text.contains(String(rulesTag ?? "")))
        }
    }

    @Test func resolveSaysWhenADestinationRequiresSignIn() throws {
        try TestService.with { service in
            let workspace = try CodegenWorkspace(service)
            let profile = try Fixture.expect(
                200, service.request("GET", "/v1/apps/\(workspace.app)/destinations/profile", key: workspace.key)
            ).json
            #expect(profile["requiresSignIn"] == .bool(true))
            let home = try Fixture.expect(200, service.request("GET", "/v1/apps/\(workspace.app)/destinations/home", key: workspace.key))
                .json
            #expect(home["requiresSignIn"] == .bool(false))
            let signedIn = try service.request(
                "GET", "/v1/resolve?url=https://links.example.com/u/5a1d0e4c-8b1e-4f55-9c3a-0d2b6e7f8a90&log=false", key: workspace.key)
            #expect(signedIn.text.contains(#"},"requiresSignIn":true,"links""#))
            let open = try service.request("GET", "/v1/resolve?url=https://links.example.com/widget/42&log=false", key: workspace.key)
            #expect(!open.text.contains("requiresSignIn"))
            let refused = try service.request(
                "POST", "/v1/apps/\(workspace.app)/destinations", key: workspace.key, json: #"{"name":"x","requiresSignIn":"yes"}"#)
            #expect(refused.status == 422)
        }
    }
}
