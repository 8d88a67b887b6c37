import Testing
@testable import LinkKit

/// The assetlinks lint against the rules of Google's Digital Asset Links parser (docs/ANDROID.md "assetlinks.json
/// as Google parses it"): include statements are valid (Google grants the statements beside them and in the
/// included file), malformed relation strings and `site` URLs are malformed content (Google drops the statement).
/// Our own cases, written from the behaviour Google's compatibility suite describes.
@Suite struct AssetLinksGoogleSyntaxTests {
    static let fingerprint = AssetLinksTests.fingerprint
    static let app = #"{"namespace":"android_app","package_name":"com.example.app","sha256_cert_fingerprints":["\#(fingerprint)"]}"#
    static let handleAll = #"{"relation":["delegate_permission/common.handle_all_urls"],"target":\#(app)}"#

    static func web(_ site: String) -> String {
        #"[{"relation":["delegate_permission/common.get_login_creds"],"target":{"namespace":"web","site":"\#(site)"}}]"#
    }

    static func relation(_ relation: String) -> String {
        #"[{"relation":["\#(relation)"],"target":\#(app)}]"#
    }

    static func granted(_ text: String) throws -> Bool {
        try AssetLinksFile.decode(text).grantsHandleAllURLs(
            packageName: AndroidPackageName("com.example.app"),
            fingerprint: CertificateFingerprint(fingerprint))
    }

    static func errors(_ text: String) -> [LintFinding] { AssetLinksLinter.lint(text: text).filter { $0.severity == .error } }

    // MARK: include

    @Test func anIncludeBesideAStatementIsValidAndTheAppIsGranted() throws {
        let text = #"[{"include":"https://example.com/more.json"},\#(Self.handleAll)]"#
        #expect(Self.errors(text) == [])
        let findings = AssetLinksLinter.lint(text: text)
        #expect(findings.map(\.code) == ["includeNotFollowed"], "\(findings)")
        #expect(findings.first?.pointer == "/0/include")
        #expect(findings.first?.severity == .warning)
        #expect(try Self.granted(text))
    }

    @Test func aFileOfIncludesOnlyIsValid() throws {
        let text = #"[{"include":"https://example.com/a.json"},{"include":"https://cdn.example.com/b.json","note":{"by":"ops"}}]"#
        #expect(Self.errors(text) == [])
        // Other keys beside an include are allowed (extensibility): no unknownKey warning.
        #expect(AssetLinksLinter.lint(text: text).map(\.code) == ["includeNotFollowed", "includeNotFollowed"])
        #expect(try !Self.granted(text)) // the statements are in files linkd does not fetch
    }

    @Test(arguments: [
        (
            #"[{"include":"https://example.com/a.json","target":{"namespace":"web","site":"https://example.com"}}]"#,
            "includeWithStatement", "/0/target"
        ),
        (
            #"[{"include":"https://example.com/a.json","relation":["delegate_permission/common.handle_all_urls"]}]"#,
            "includeWithStatement", "/0/relation"
        ),
        (#"[{"include":5}]"#, "wrongType", "/0/include"),
        (#"[{"include":"http://example.com/a.json"}]"#, "include", "/0/include"),
        (#"[{"include":"more.json"}]"#, "include", "/0/include"),
    ])
    func malformedIncludes(_ text: String, _ code: String, _ pointer: String) {
        let hit = Self.errors(text).first { $0.code == code && $0.pointer == pointer }
        #expect(hit != nil, "got \(AssetLinksLinter.lint(text: text))")
    }

    // MARK: relation strings

    @Test(arguments: [
        "delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds",
        "delegate_permission/paint_the_fence", "delegate_permission/com.example.paint_the_fence", "navigate/to_the_shop",
        "delegate_permission/get_login_creds",
    ])
    func wellFormedRelationsAreNoErrors(_ relation: String) {
        #expect(Self.errors(Self.relation(relation)) == [], "\(relation)")
    }

    /// kind/detail with one '/', each side lower-case letters, digits, '_', '.'.
    @Test(arguments: [
        "", "paint_the_fence", "delegate_permission", "delegate_permission/paint/fence", "delegate_permission,paint_the_fence",
        "Delegate_Permission/paint_the_fence", "/paint_the_fence", "/", " delegate_permission/paint_the_fence",
        "delegate_permission /paint_the_fence", "delegate_permission/*", "delegate_permission/", "delegate_permission/paint the fence",
        "delegate_permission/paint+the+fence", "delegate_permission/paint_the_fence!", "delegate_permission/paint_the_FENCE",
        "delegate_permission/paint_the_fence ", "delegate_permission/common.handle_all_urls\t",
    ])
    func malformedRelationsAreErrorsWithAPointer(_ relation: String) throws {
        let text = Self.relation(relation.replacingOccurrences(of: "\t", with: "\\t"))
        let hit = Self.errors(text).first { $0.code == "relation" }
        #expect(hit?.pointer == "/0/relation/0", "\(relation): \(AssetLinksLinter.lint(text: text))")
        #expect(!AssetLinksLinter.lint(text: text).contains { $0.code == "unknownRelation" })
    }

    /// Google drops a statement with a malformed relation: a well-formed handle_all_urls beside it grants nothing.
    @Test func aStatementWithAMalformedRelationGrantsNothing() throws {
        let text = #"[{"relation":["delegate_permission/common.handle_all_urls","delegate_permission/*"],"target":\#(Self.app)}]"#
        #expect(try !Self.granted(text))
        let nonString = #"[{"relation":["delegate_permission/common.handle_all_urls",{}],"target":\#(Self.app)}]"#
        #expect(try !Self.granted(nonString))
        // The statement next to it still counts.
        #expect(try Self.granted(#"[{"relation":["delegate_permission/*"],"target":\#(Self.app)},\#(Self.handleAll)]"#))
    }

    // MARK: site URLs

    @Test(arguments: [
        "https://example.com", "http://example.com", "HtTpS://example.com", "https://example.com.", "https://example.com:8443",
        "https://sub.example-shop.co.uk", "https://192.0.2.1",
    ])
    func wellFormedSitesAreNoErrors(_ site: String) {
        #expect(Self.errors(Self.web(site)) == [], "\(site)")
    }

    /// An origin: http(s), a host, an optional port, and nothing else.
    @Test(arguments: [
        "example.com", "mailto://user@example.com", "ftp://example.com", "https://user:secret@example.com", "https://example.com:999999",
        "https://example.com:0", "https://example.com:", "https://example.com:https", "https://example.com?x=1", "https://example.com#top",
        "https://example.com/", "https://example.com/app", "https://example.com/app/", "https://example.com/*", "https://",
        "https://exa mple.com",
        "https://[example.com]",
    ])
    func malformedSitesAreErrorsWithAPointer(_ site: String) {
        let hit = Self.errors(Self.web(site)).first { $0.code == "site" }
        #expect(hit?.pointer == "/0/target/site", "\(site): \(AssetLinksLinter.lint(text: Self.web(site)))")
    }

    @Test func statementsWithAMalformedSiteAreDropped() throws {
        #expect(try AssetLinksFile.decode(Self.web("https://example.com/")).statements.isEmpty)
        #expect(try AssetLinksFile.decode(Self.web("https://example.com")).statements.count == 1)
    }
}
