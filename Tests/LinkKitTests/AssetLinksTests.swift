import Testing
@testable import LinkKit

@Suite struct AssetLinksTests {
    static let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    static let other = "AA:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    static func file(
        relation: String = #""delegate_permission/common.handle_all_urls""#, namespace: String = "android_app",
        package: String = "com.example.app", fingerprints: String = "\"\(fingerprint)\""
    ) -> String {
        #"[{"relation":[\#(relation)],"target":{"namespace":"\#(namespace)","package_name":"\#(package)","sha256_cert_fingerprints":[\#(fingerprints)]}}]"#
    }

    @Test func canonicalRoundTrip() throws {
        let text = Self.file()
        let decoded = try AssetLinksFile.decode(text)
        #expect(decoded.encoded() == text)
        #expect(decoded.statements.first?.target == .androidApp(packageName: "com.example.app", fingerprints: [Self.fingerprint]))
    }

    @Test(arguments: [
        (file(), "com.example.app", fingerprint, true),
        (file(), "com.example.other", fingerprint, false),
        (file(), "com.example.app", other, false),
        (file(fingerprints: "\"\(other)\",\"\(fingerprint)\""), "com.example.app", fingerprint, true),
        (file(relation: #""delegate_permission/common.get_login_creds""#), "com.example.app", fingerprint, false),
        (
            file(relation: #""delegate_permission/common.get_login_creds","delegate_permission/common.handle_all_urls""#),
            "com.example.app", fingerprint, true
        ),
        (file(namespace: "web"), "com.example.app", fingerprint, false),
        (file(fingerprints: "\"\(fingerprint.lowercased())\""), "com.example.app", fingerprint, false),
        (file(fingerprints: "\"\(fingerprint.replacingOccurrences(of: ":", with: ""))\""), "com.example.app", fingerprint, false),
    ])
    func grants(_ text: String, _ package: String, _ fingerprint: String, _ expected: Bool) throws {
        let file = try AssetLinksFile.decode(text)
        #expect(
            file.grantsHandleAllURLs(packageName: try AndroidPackageName(package), fingerprint: try CertificateFingerprint(fingerprint))
                == expected)
    }

    @Test func topLevelMustBeAList() {
        #expect { try AssetLinksFile.decode(#"{"relation":[]}"#) } throws: { ($0 as? LinkKitError)?.code == .invalidDocument }
    }

    @Test(
        arguments: [
            (#"{"a":1}"#, "wrongType", "", LintFinding.Severity.error),
            ("[", "malformedJSON", "", .error),
            ("[]", "noStatements", "", .warning),
            ("[5]", "wrongType", "/0", .error),
            (file(relation: #""delegate_permission/common.handle_all_url""#), "unknownRelation", "/0/relation/0", .warning),
            (file(relation: "3"), "wrongType", "/0/relation/0", .error),
            (file(relation: ""), "noRelation", "/0/relation", .error),
            (file(namespace: "android"), "namespace", "/0/target/namespace", .error),
            (file(package: "app"), "packageName", "/0/target/package_name", .error),
            (file(package: "com.1x"), "packageName", "/0/target/package_name", .error),
            (file(fingerprints: "\"\(fingerprint.lowercased())\""), "fingerprint", "/0/target/sha256_cert_fingerprints/0", .error),
            (
                file(fingerprints: "\"\(fingerprint.replacingOccurrences(of: ":", with: ""))\""), "fingerprint",
                "/0/target/sha256_cert_fingerprints/0", .error
            ),
            (file(fingerprints: "\"AB:CD\""), "fingerprint", "/0/target/sha256_cert_fingerprints/0", .error),
            (file(fingerprints: ""), "missingKey", "/0/target/sha256_cert_fingerprints", .error),
            (#"[{"relation":["delegate_permission/common.handle_all_urls"]}]"#, "missingKey", "/0/target", .error),
            (
                #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"web"}}]"#, "missingKey",
                "/0/target/site", .error
            ),
            (#"[{"relations":[],"target":{"namespace":"web","site":"https://e.com"}}]"#, "unknownKey", "/0/relations", .warning),
        ] as [(String, String, String, LintFinding.Severity)])
    func lints(_ text: String, _ code: String, _ pointer: String, _ severity: LintFinding.Severity) {
        let findings = AssetLinksLinter.lint(text: text)
        let hit = findings.first { $0.code == code && $0.pointer == pointer }
        #expect(hit?.severity == severity, "got \(findings)")
    }

    @Test func cleanFile() {
        #expect(AssetLinksLinter.lint(text: Self.file()) == [])
    }
}
