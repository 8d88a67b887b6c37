import Testing
@testable import LinkKit

/// PatternMatcher semantics as Android's `<data>` docs and `PatternMatcher` describe them (docs/ANDROID.md).
@Suite("AndroidPatternMatcher")
struct AndroidPatternMatcherTests {
    struct Case: Sendable, CustomStringConvertible {
        let pattern: String
        let kind: AndroidPatternMatcher.Kind
        let matching: [String]
        let notMatching: [String]
        var description: String { "\(kind) \(pattern)" }
    }

    static let cases: [Case] = [
        Case(pattern: "/about", kind: .literal, matching: ["/about"], notMatching: ["/about/", "/About", "/abou"]),
        Case(pattern: "/buy/", kind: .prefix, matching: ["/buy/", "/buy/x/y"], notMatching: ["/buy", "/buyer"]),
        // `.` is any character; `x*` repeats the character before it; `.*` any run.
        Case(pattern: "/a.c", kind: .simpleGlob, matching: ["/abc", "/a/c"], notMatching: ["/ac", "/abbc"]),
        Case(pattern: "/ab*c", kind: .simpleGlob, matching: ["/ac", "/abc", "/abbbc"], notMatching: ["/abxc"]),
        Case(pattern: "/w/.*", kind: .simpleGlob, matching: ["/w/", "/w/5", "/w/a/b"], notMatching: ["/w", "/x/5"]),
        // `.*` before more pattern stops at the first occurrence of the next character and never retries.
        Case(pattern: "/w/..*/info", kind: .simpleGlob, matching: ["/w/5/info", "/w/55/info"], notMatching: ["/w/a/b/info", "/w//info"]),
        // A starred character at the very end cannot take zero occurrences once the input is used up.
        Case(pattern: "/about/*", kind: .simpleGlob, matching: ["/about/", "/about//"], notMatching: ["/about"]),
        Case(pattern: "/robots\\.txt", kind: .simpleGlob, matching: ["/robots.txt"], notMatching: ["/robotsXtxt"]),
        // Advanced: sets, ranges, `+`, greedy without backtracking.
        Case(pattern: "/id/[0-9]+", kind: .advancedGlob, matching: ["/id/1", "/id/123"], notMatching: ["/id/", "/id/1a"]),
        Case(pattern: "/[hH][eE][lL][pP]/*", kind: .advancedGlob, matching: ["/help", "/HELP/", "/HeLp//"], notMatching: ["/helpx"]),
        Case(pattern: "/c/[^/]*/x", kind: .advancedGlob, matching: ["/c//x", "/c/abc/x"], notMatching: ["/c/a/b/x"]),
        Case(pattern: "/v/.*/x", kind: .advancedGlob, matching: [], notMatching: ["/v/a/x", "/v//x"]),
        Case(pattern: "/n/[0-9]{2,3}", kind: .advancedGlob, matching: ["/n/12", "/n/123"], notMatching: ["/n/1", "/n/1234"]),
    ]

    @Test(arguments: cases) func matches(_ example: Case) throws {
        let matcher = try AndroidPatternMatcher(example.pattern, kind: example.kind)
        for path in example.matching { #expect(matcher.matches(path), "\(example) should match \(path)") }
        for path in example.notMatching { #expect(!matcher.matches(path), "\(example) should not match \(path)") }
    }

    @Test(arguments: ["[abc", "*x", "/a{2", "/a\\", "/[]", "/a{3,1}"])
    func refusesWhatAndroidRefuses(_ pattern: String) {
        #expect(throws: LinkKitError.self) { try AndroidPatternMatcher(pattern, kind: .advancedGlob) }
    }
}
