import Foundation
import TestSupport
import Testing

/// `linkd aasa validate|match` and `linkd assetlinks validate` through the real binary.
@Suite struct AASACommandTests {
    static let good =
        ##"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"#":"no","exclude":true},{"/":"/buy/*"}]},{"appIDs":["FGHIJ67890.com.example.other"],"components":[{"/":"*"}]}]}}"##
    static let bad = #"{"applinks":{"details":[{"appIDs":["ABCDE12345"],"components":[{"/":"/a","casesensitive":false,"?":{"id":5}}]}]}}"#

    @Test func validateValidFile() throws {
        let result = try LinkdProcess.run(["aasa", "validate", try LinkdProcess.temporaryFile(Self.good)])
        #expect(result.status == 0)
        #expect(result.stdout.contains("valid, 0 errors, 0 warnings"))
    }

    @Test func validateReportsFindingsWithPointers() throws {
        let result = try LinkdProcess.run(["aasa", "validate", try LinkdProcess.temporaryFile(Self.bad)])
        #expect(result.status == 1)
        #expect(result.stdout.contains("error: /applinks/details/0/appIDs/0:"))
        #expect(result.stdout.contains("warning: /applinks/details/0/components/0/casesensitive:"))
        #expect(result.stdout.contains("did you mean 'caseSensitive'?"))
        #expect(result.stdout.contains("error: /applinks/details/0/components/0/?/id:"))
        #expect(result.stdout.contains("invalid, 2 errors, 1 warning"))
    }

    @Test func validateJSONFromStdin() throws {
        let result = try LinkdProcess.run(["aasa", "validate", "-", "--json"], input: Self.bad)
        #expect(result.status == 1)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(report["valid"] as? Bool == false)
        #expect(report["errors"] as? Int == 2)
        let findings = report["findings"] as! [[String: Any]]
        #expect(
            findings.contains {
                $0["pointer"] as? String == "/applinks/details/0/components/0/?/id" && $0["severity"] as? String == "error"
            })
    }

    @Test func validateMalformedJSON() throws {
        let result = try LinkdProcess.run(["aasa", "validate", "-"], input: "{\"applinks\": [}")
        #expect(result.status == 1)
        #expect(result.stdout.contains("line 1, column 15"))
    }

    @Test func validateUsageAndMissingFile() throws {
        #expect(try LinkdProcess.run(["aasa", "validate"]).status == 2)
        #expect(try LinkdProcess.run(["aasa", "validate", "x", "--bogus"]).status == 2)
        #expect(try LinkdProcess.run(["aasa"]).status == 2)
        #expect(try LinkdProcess.run(["aasa", "frobnicate"]).status == 2)
        let missing = try LinkdProcess.run(["aasa", "validate", "/nonexistent/aasa.json"])
        #expect(missing.status == 1 && missing.stderr.contains("cannot read"))
    }

    @Test func matchExplainsWithTrace() throws {
        let file = try LinkdProcess.temporaryFile(Self.good)
        let result = try LinkdProcess.run(["aasa", "match", file, "https://example.com/buy/1"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Opens ABCDE12345.com.example.app through /applinks/details/0/components/1"))
        #expect(result.stdout.contains("Rules tried for FGHIJ67890.com.example.other"))
        let blocked = try LinkdProcess.run(["aasa", "match", file, "https://example.com/buy/1#no", "--app", "ABCDE12345.com.example.app"])
        #expect(blocked.stdout.contains("ABCDE12345.com.example.app: exclude through /applinks/details/0/components/0"))
        #expect(!blocked.stdout.contains("FGHIJ67890"))
    }

    @Test func matchJSON() throws {
        let file = try LinkdProcess.temporaryFile(Self.good)
        let result = try LinkdProcess.run(["aasa", "match", file, "https://example.com/other", "--json"])
        let answer = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(answer["appID"] as? String == "FGHIJ67890.com.example.other")
        #expect(answer["detailIndex"] as? Int == 1 && answer["componentIndex"] as? Int == 0)
        let trace = answer["trace"] as! [[String: Any]]
        #expect(trace.count == 3)
        #expect(trace.last?["matched"] as? Bool == true)
        let app = try LinkdProcess.run([
            "aasa", "match", file, "https://example.com/other", "--json", "--app", "ABCDE12345.com.example.app",
        ])
        let appAnswer = try JSONSerialization.jsonObject(with: Data(app.stdout.utf8)) as! [String: Any]
        #expect(appAnswer["decision"] as? String == "no_match")
    }

    @Test func matchRejectsBadInput() throws {
        let file = try LinkdProcess.temporaryFile(Self.good)
        #expect(try LinkdProcess.run(["aasa", "match", file]).status == 2)
        #expect(try LinkdProcess.run(["aasa", "match", file, "not a url"]).status == 1)
        #expect(try LinkdProcess.run(["aasa", "match", try LinkdProcess.temporaryFile("[]"), "https://example.com/"]).status == 1)
    }

    static let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    static let assetlinks =
        #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.example.app","sha256_cert_fingerprints":["\#(fingerprint)"]}}]"#

    @Test func assetlinksValidate() throws {
        let file = try LinkdProcess.temporaryFile(Self.assetlinks, name: "assetlinks.json")
        let ok = try LinkdProcess.run(["assetlinks", "validate", file, "--package", "com.example.app", "--fingerprint", Self.fingerprint])
        #expect(ok.status == 0)
        #expect(ok.stdout.contains("com.example.app is granted"))
        let other = try LinkdProcess.run([
            "assetlinks", "validate", file, "--package", "com.example.other", "--fingerprint", Self.fingerprint, "--json",
        ])
        #expect(other.status == 1)
        let report = try JSONSerialization.jsonObject(with: Data(other.stdout.utf8)) as! [String: Any]
        #expect(report["handleAllURLs"] as? Bool == false && report["valid"] as? Bool == true)
        let lower = try LinkdProcess.run(
            ["assetlinks", "validate", "-"],
            input: Self.assetlinks.replacingOccurrences(of: Self.fingerprint, with: Self.fingerprint.lowercased()))
        #expect(lower.status == 1)
        #expect(lower.stdout.contains("/0/target/sha256_cert_fingerprints/0"))
        #expect(try LinkdProcess.run(["assetlinks", "validate", file, "--package", "com.example.app"]).status == 2)
        #expect(try LinkdProcess.run(["assetlinks"]).status == 2)
    }

    /// Lint as Google parses (docs/ANDROID.md): an include statement is valid (a warning that linkd does not follow
    /// it), a malformed relation or site an error with its pointer.
    @Test func assetlinksValidateAcceptsIncludeAndFlagsMalformedRelationsAndSites() throws {
        let include = #"[{"include":"https://example.com/more.json"},"# + Self.assetlinks.dropFirst()
        let ok = try LinkdProcess.run(
            ["assetlinks", "validate", "-", "--package", "com.example.app", "--fingerprint", Self.fingerprint], input: include)
        #expect(ok.status == 0, "\(ok.stdout)")
        #expect(ok.stdout.contains("warning: /0/include:"))
        #expect(ok.stdout.contains("com.example.app is granted"))
        let relation = Self.assetlinks.replacingOccurrences(of: "common.handle_all_urls", with: "common.handle_all_urls ")
        let bad = try LinkdProcess.run(["assetlinks", "validate", "-"], input: relation)
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("error: /0/relation/0:"), "\(bad.stdout)")
        let site =
            #"[{"relation":["delegate_permission/common.get_login_creds"],"target":{"namespace":"web","site":"https://example.com/"}}]"#
        let badSite = try LinkdProcess.run(["assetlinks", "validate", "-"], input: site)
        #expect(badSite.status == 1)
        #expect(badSite.stdout.contains("error: /0/target/site:"), "\(badSite.stdout)")
    }

    /// Android 15+ dynamic rules (docs/ANDROID.md): warnings for what older Android does, errors for what makes
    /// Android discard them.
    @Test func assetlinksValidateLintsDynamicRules() throws {
        func file(_ components: String) -> String {
            Self.assetlinks.replacingOccurrences(
                of: "]}}]",
                with: #"]},"relation_extensions":{"delegate_permission/common.handle_all_urls":{"dynamic_app_link_components":"#
                    + components + "}}}]")
        }
        let good = try LinkdProcess.run(
            ["assetlinks", "validate", "-", "--json"], input: file(#"[{"/":"/private/*","exclude":true},{"/":"/w/*/info"},{"/":"*"}]"#))
        #expect(good.status == 0)
        #expect(good.stdout.contains("/0/relation_extensions/delegate_permission~1common.handle_all_urls/dynamic_app_link_components/0"))
        #expect(good.stdout.contains("exclusionNeedsAndroid15") && good.stdout.contains("innerWildcard"))
        let bad = try LinkdProcess.run(["assetlinks", "validate", "-"], input: file(#"[{"/":5},{"?":"dl=1"},{"exclude":"yes"},{}]"#))
        #expect(bad.status == 1)
        for pointer in [
            "dynamic_app_link_components/0/~1", "dynamic_app_link_components/1/?", "dynamic_app_link_components/2/exclude",
            "dynamic_app_link_components/3",
        ] {
            #expect(
                bad.stdout.contains("error: /0/relation_extensions/delegate_permission~1common.handle_all_urls/" + pointer + ":"),
                "\(pointer)")
        }
    }

    @Test func helpListsTheCommands() throws {
        let result = try LinkdProcess.run(["--help"])
        #expect(result.stdout.contains("aasa") && result.stdout.contains("assetlinks"))
        #expect(try LinkdProcess.run(["aasa", "--help"]).stdout.contains("linkd aasa decide"))
    }
}
