import Testing
@testable import LinkKit

/// Each lint finding, with its pointer.
@Suite struct AASALinterTests {
    struct Row: CustomStringConvertible, Sendable {
        let text: String
        let severity: LintFinding.Severity
        let code: String
        let pointer: String
        let fragment: String
        init(_ text: String, _ severity: LintFinding.Severity, _ code: String, _ pointer: String, _ fragment: String = "") {
            self.text = text
            self.severity = severity
            self.code = code
            self.pointer = pointer
            self.fragment = fragment
        }
        var description: String { "\(code) at \(pointer)" }
    }

    static let rows: [Row] = [
        Row("[1]", .error, "wrongType", "", "must be a JSON object"),
        Row("{\"applinks\": tru}", .error, "malformedJSON", "", "line 1, column 14"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345"]}]}}"#, .error, "appID", "/applinks/details/0/appIDs/0",
            "<team ID>.<bundle ID>"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["abcde12345.com.x"]}]}}"#, .warning, "teamID", "/applinks/details/0/appIDs/0",
            "10 upper-case"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["ABCD1234.com.x"]}]}}"#, .warning, "teamID", "/applinks/details/0/appIDs/0",
            "10 upper-case"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["ABC-E12345.com.x"]}]}}"#, .error, "teamID", "/applinks/details/0/appIDs/0",
            "not a team ID"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com..x"]}]}}"#, .error, "bundleID", "/applinks/details/0/appIDs/0",
            "empty part"),
        Row(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.x_y"]}]}}"#, .error, "bundleID", "/applinks/details/0/appIDs/0", "'_'"),
        Row(#"{"applinks":{"details":[{"appIDs":[5]}]}}"#, .error, "wrongType", "/applinks/details/0/appIDs/0", "must be a string"),
        Row(#"{"applinks":{"details":[{"components":[]}]}}"#, .error, "noApps", "/applinks/details/0", "names no app"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"?":{"id":5}}]}]}}"#, .error, "queryValueNotString",
            "/applinks/details/0/components/0/?/id", "ignores the whole"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"exclude":"true"}]}]}}"#, .error, "wrongType",
            "/applinks/details/0/components/0/exclude", "true or false"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"caseSensitive":0}]}]}}"#, .error, "wrongType",
            "/applinks/details/0/components/0/caseSensitive", "true or false"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":["a"]}]}]}}"#, .error, "wrongType",
            "/applinks/details/0/components/0/~1", "pattern string"),
        Row(
            ##"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"#":1}]}]}}"##, .error, "wrongType",
            "/applinks/details/0/components/0/#", "pattern string"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"?":1}]}]}}"#, .error, "wrongType",
            "/applinks/details/0/components/0/?", "pattern string or an object"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":{"/":"x"}}]}}"#, .error, "wrongType", "/applinks/details/0/components",
            "must be an array"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":["/x"]}]}}"#, .error, "wrongType", "/applinks/details/0/components/0",
            "a component must be a JSON object"),
        Row(
            #"{"applinks":{"details":[{"appID":"A.b","paths":["NOT/x"]}]}}"#, .warning, "notWithoutSpace", "/applinks/details/0/paths/0",
            "'NOT '"),
        Row(
            #"{"applinks":{"details":[{"appID":"A.b","paths":["not /x"]}]}}"#, .warning, "notWithoutSpace", "/applinks/details/0/paths/0",
            "upper-case"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[],"paths":["*"]}]}}"#, .warning, "pathsWithComponents",
            "/applinks/details/0/paths", "ignored"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"casesensitive":false}]}]}}"#, .warning, "unknownKey",
            "/applinks/details/0/components/0/casesensitive", "did you mean 'caseSensitive'?"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"percentEncode":false}]}]}}"#, .warning, "unknownKey",
            "/applinks/details/0/components/0/percentEncode", "did you mean 'percentEncoded'?"),
        Row(#"{"applinks":{"detail":[]}}"#, .warning, "unknownKey", "/applinks/detail", "did you mean 'details'?"),
        Row(#"{"applink":{}}"#, .warning, "unknownKey", "/applink", "did you mean 'applinks'?"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/$(food)"}]}]}}"#, .warning, "undefinedVariable",
            "/applinks/details/0/components/0/~1", "never matches"),
        Row(
            #"{"applinks":{"substitutionVariables":{"food":["a"]},"details":[{"appIDs":["A.b"],"components":[{"/":"/$(Food)"}]}]}}"#,
            .warning, "undefinedVariable", "/applinks/details/0/components/0/~1", "did you mean $(food)?"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/$(food"}]}]}}"#, .error, "unterminatedVariable",
            "/applinks/details/0/components/0/~1", "no closing"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"?":{"r":"$(regoin)"}}]}]}}"#, .warning, "undefinedVariable",
            "/applinks/details/0/components/0/?/r", "$(regoin)"),
        Row(
            #"{"applinks":{"substitutionVariables":{"fo(o":["a"]}}}"#, .warning, "variableName", "/applinks/substitutionVariables/fo(o",
            "'$', '(' or ')'"),
        Row(
            #"{"applinks":{"substitutionVariables":{"v":["$(x)"]}}}"#, .warning, "variableInValue", "/applinks/substitutionVariables/v/0",
            "may not reference"),
        Row(#"{"applinks":{"substitutionVariables":{"v":[1]}}}"#, .error, "wrongType", "/applinks/substitutionVariables/v/0", "strings"),
        Row(
            #"{"applinks":{"substitutionVariables":{"country":["US","UK"]}}}"#, .warning, "regionUK",
            "/applinks/substitutionVariables/country/1", "GB"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/UK/*"}]}]}}"#, .warning, "regionUK",
            "/applinks/details/0/components/0/~1", "GB"),
        Row(
            #"{"applinks":{"substitutionVariables":{"region":["X"]}}}"#, .warning, "variableShadowsBuiltIn",
            "/applinks/substitutionVariables/region", "built-in"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/a/*"},{"/":"/a/*"}]}]}}"#, .warning, "unreachableRule",
            "/applinks/details/0/components/1", "same pattern"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"*"},{"/":"/b"}]}]}}"#, .warning, "unreachableRule",
            "/applinks/details/0/components/1", "every URL"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{}]},{"appIDs":["A.b"],"components":[{"/":"/c"}]}]}}"#, .warning,
            "unreachableRule", "/applinks/details/1/components/0", "/applinks/details/0/components/0"),
        Row(
            #"{"applinks":{"details":[{"appID":"A.b","paths":["/x/*","/x/*/"]}]}}"#, .warning, "unreachableRule",
            "/applinks/details/0/paths/1", "same pattern"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/c/?*"},{"/":"/c/sale"}]}]}}"#, .warning, "unreachableRule",
            "/applinks/details/0/components/1", "matches every URL this rule matches"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/c/?*","exclude":true},{"/":"/c","?":{"x":"*"}},{"/":"/c/*","?":{"x":"1"}}]}]}}"#,
            .warning, "unreachableRule", "/applinks/details/0/components/2", "together"),
        Row(#"{"applinks":{"apps":["A.b"],"details":[]}}"#, .warning, "legacyAppsNotEmpty", "/applinks/apps", "empty array"),
        Row(#"{"applinks":{"details":{"A.b":{"paths":["*"]}}}}"#, .warning, "legacyDetailsObject", "/applinks/details", "iOS 9"),
        Row(#"{"applinks":{"details":5}}"#, .error, "wrongType", "/applinks/details", "array of objects"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/#/x"}]}]}}"#, .warning, "hashInPath",
            "/applinks/details/0/components/0/~1", "'#' key"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"appID":"A.c"}]}}"#, .warning, "appIDAndAppIDs", "/applinks/details/0",
            "'appIDs' only"),
        Row(#"{"applinks":{"details":[],"details":[]}}"#, .warning, "duplicateKey", "/applinks/details", "more than once"),
        Row(
            #"{"applinks":{"details":[]},"webcredentials":{"apps":["nope"]}}"#, .error, "appID", "/webcredentials/apps/0",
            "<team ID>.<bundle ID>"),
        Row(#"{"applinks":{"details":[]},"appclips":{"apps":"A.b"}}"#, .error, "wrongType", "/appclips/apps", "must be an array"),
        Row(
            #"{"applinks":{"details":[]},"activitycontinuation":{"apps":["abc.x"]}}"#, .warning, "teamID", "/activitycontinuation/apps/0",
            "10 upper-case"),
        Row(#"{"applinks":{"details":[]},"webcredentials":{}}"#, .error, "missingKey", "/webcredentials", "'apps'"),
        Row(#"{"webcredentials":{"apps":[]}}"#, .warning, "noAppLinks", "", "no URL"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"defaults":{"caseSensitive":"no"}}]}}"#, .error, "wrongType",
            "/applinks/details/0/defaults/caseSensitive", "true or false"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/café/*"}]}]}}"#, .warning, "unencodedPattern",
            "/applinks/details/0/components/0/~1", "percent-encode"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"?":{"q":"a b"}}]}]}}"#, .warning, "unencodedPattern",
            "/applinks/details/0/components/0/?/q", "never match"),
        Row(
            #"{"applinks":{"defaults":{"percentEncoded":false},"details":[{"appIDs":["A.b"],"defaults":{"percentEncoded":true},"components":[{"/":"/a b"}]}]}}"#,
            .warning, "unencodedPattern", "/applinks/details/0/components/0/~1", "never match"),
        Row(#"{"applinks":{}}"#, .warning, "missingKey", "/applinks", "no 'details'"),
        Row(#"{"applinks":{"details":[{"appIDs":[],"components":[]}]}}"#, .warning, "noApps", "/applinks/details/0/appIDs", "no app"),
        Row(
            #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"comment":1}]}]}}"#, .warning, "wrongType",
            "/applinks/details/0/components/0/comment", "string"),
        Row(
            #"{"applinks":{"defaults":{"exclud":true},"details":[]}}"#, .warning, "unknownKey", "/applinks/defaults/exclud",
            "did you mean 'exclude'?"),
    ]

    @Test(arguments: rows)
    func finds(_ row: Row) {
        let findings = AASALinter.lint(text: row.text)
        let hit = findings.first { $0.code == row.code && $0.pointer == row.pointer }
        #expect(hit != nil, "got \(findings)")
        #expect(hit?.severity == row.severity)
        #expect(hit?.message.contains(row.fragment) == true, "message: \(hit?.message ?? "-")")
    }

    @Test func cleanFileHasNoFindings() {
        let text =
            ##"{"applinks":{"defaults":{"caseSensitive":false},"substitutionVariables":{"food":["pizza"]},"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"#":"no","exclude":true},{"/":"/buy/*"},{"/":"/$(lang)/$(food)"},{"/":"/help/*","?":{"n":"????"}}]}]},"webcredentials":{"apps":["ABCDE12345.com.example.app"]}}"##
        #expect(AASALinter.lint(text: text) == [])
    }

    @Test(arguments: [
        #"{"applinks":{"defaults":{"percentEncoded":false},"details":[{"appIDs":["A.b"],"components":[{"/":"/café/*"}]}]}}"#,
        #"{"applinks":{"details":[{"appIDs":["A.b"],"defaults":{"percentEncoded":false},"components":[{"/":"/café/*"}]}]}}"#,
        #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/café/*","percentEncoded":false}]}]}}"#,
    ])
    func decodedPatternsMayBeUnicode(_ text: String) {
        #expect(!AASALinter.lint(text: text).contains { $0.code == "unencodedPattern" })
    }

    @Test func reachableRulesAreNotReported() {
        // The later rule differs in its query, so the first does not cover it; and rule 1 of entry 1 is reachable for app C.
        let text =
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.a"],"components":[{"/":"/a/*","?":"x"}]},{"appIDs":["ABCDE12345.com.a","ABCDE12345.com.c"],"components":[{"/":"/a/*"}]}]}}"#
        #expect(AASALinter.lint(text: text).filter { $0.code == "unreachableRule" } == [])
    }

    @Test func oversizedFileIsAnError() {
        let components = (0..<6_000).map { #"{"/":"/section\#($0)/*"}"# }.joined(separator: ",")
        let text = #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[\#(components)]}]}}"#
        #expect(text.utf8.count > AASAFile.maximumSize)
        let finding = AASALinter.lint(text: text).first
        #expect(finding?.code == "fileTooLarge" && finding?.severity == .error && finding?.pointer == "")
    }

    @Test func findingJSONShape() {
        let finding = LintFinding(.warning, "unknownKey", "/a", "m")
        #expect(finding.json.serialized == #"{"severity":"warning","code":"unknownKey","pointer":"/a","message":"m"}"#)
    }
}
