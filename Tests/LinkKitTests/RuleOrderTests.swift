import Testing
@testable import LinkKit

/// §3: defaults cascade, first match wins, exclude stops, per-app evaluation, choosing the app, legacy forms.
@Suite struct RuleOrderTests {
    static let twoApps =
        #"{"applinks":{"details":[{"appIDs":["\#(appA)"],"components":[{"/":"/a/*"}]},{"appIDs":["\#(appB)"],"components":[{"/":"*"}]}]}}"#
    static let perAppExclude =
        #"{"applinks":{"details":[{"appIDs":["\#(appA)"],"components":[{"/":"*","exclude":true}]},{"appIDs":["\#(appB)"],"components":[{"/":"/x/*"}]}]}}"#
    static let sameAppTwice =
        #"{"applinks":{"details":[{"appIDs":["\#(appA)"],"components":[{"/":"/a/*"}]},{"appIDs":["\#(appB)"],"components":[{"/":"/b/*"}]},{"appIDs":["\#(appA)"],"components":[{"/":"*","exclude":true}]}]}}"#
    static let legacy =
        #"{"applinks":{"apps":[],"details":[{"appID":"\#(appA)","paths":["/wwdc/news/","NOT /videos/wwdc/2010/*","/videos/wwdc/201?/*","NOT/x"]}]}}"#
    static let mixed = #"{"applinks":{"details":[{"appIDs":["\#(appA)"],"components":[],"paths":["*"]}]}}"#
    static let ios9 = #"{"applinks":{"apps":[],"details":{"\#(appA)":{"paths":["/a/*"]},"\#(appB)":{"paths":["*"]}}}}"#

    static let cases: [MatchCase] = [
        MatchCase(
            "domain default exclude", single(##"[{"#":"*"}]"##, domainDefaults: #"{"exclude":true}"#), "https://example.com/bar",
            "blocked 0.0"),
        MatchCase(
            "component overrides default exclude", single(#"[{"exclude":false}]"#, domainDefaults: #"{"exclude":true}"#),
            "https://example.com/bar", "A 0.0"),
        MatchCase("app default path applies", single(##"[{"#":"x"}]"##, defaults: #"{"/":"/a/*"}"#), "https://example.com/a/1#x", "A 0.0"),
        MatchCase("app default path restricts", single(##"[{"#":"x"}]"##, defaults: #"{"/":"/a/*"}"#), "https://example.com/b#x", "none"),
        MatchCase(
            "domain default query applies", single(#"[{"/":"/a"}]"#, domainDefaults: #"{"?":{"k":"1"}}"#), "https://example.com/a", "none"),
        MatchCase(
            "app default fragment overrides domain", single(#"[{"/":"/a"}]"#, defaults: ##"{"#":"*"}"##, domainDefaults: ##"{"#":"z"}"##),
            "https://example.com/a", "A 0.0"),
        MatchCase(
            "first match wins: exclude first", single(#"[{"/":"/a/*","exclude":true},{"/":"/a/*"}]"#), "https://example.com/a/1",
            "blocked 0.0"),
        MatchCase(
            "first match wins: match first", single(#"[{"/":"/a/*"},{"/":"/a/*","exclude":true}]"#), "https://example.com/a/1", "A 0.0"),
        MatchCase(
            "later rule decides when earlier fail", single(#"[{"/":"/x"},{"/":"/y"},{"/":"/a/*"}]"#), "https://example.com/a/1", "A 0.2"),
        MatchCase("empty component matches all", single(#"[{}]"#), "https://example.com/anything?x=1#y", "A 0.0"),
        MatchCase("earliest entry wins", twoApps, "https://example.com/a/1", "A 0.0"),
        MatchCase("second app gets the rest", twoApps, "https://example.com/b", "B 1.0"),
        MatchCase("exclude is per app", perAppExclude, "https://example.com/x/1", "B 1.0"),
        MatchCase("block reported when no app opens", perAppExclude, "https://example.com/y", "blocked 0.0"),
        MatchCase("same app over several entries", sameAppTwice, "https://example.com/c", "blocked 2.0"),
        MatchCase("same app, earlier entry first", sameAppTwice, "https://example.com/a/1", "A 0.0"),
        MatchCase("other app still opens", sameAppTwice, "https://example.com/b/1", "B 1.0"),
        MatchCase(
            "several appIDs: first listed", #"{"applinks":{"details":[{"appIDs":["\#(appB)","\#(appA)"],"components":[{}]}]}}"#,
            "https://example.com/", "B 0.0"),
        MatchCase("legacy path", legacy, "https://example.com/wwdc/news/?utm=1#top", "A 0.0"),
        MatchCase("legacy path without trailing slash", legacy, "https://example.com/wwdc/news", "A 0.0"),
        MatchCase("legacy NOT", legacy, "https://example.com/videos/wwdc/2010/x", "blocked 0.1"),
        MatchCase("legacy after NOT", legacy, "https://example.com/videos/wwdc/2015/x", "A 0.2"),
        MatchCase("legacy case-sensitive", legacy, "https://example.com/WWDC/news/", "none"),
        MatchCase("legacy NOT without space is a pattern", legacy, "https://example.com/x", "none"),
        MatchCase("legacy NOT without space matches literally", legacy, "https://example.com/NOT/x", "A 0.3"),
        MatchCase("paths ignored when components present, even empty", mixed, "https://example.com/a", "none"),
        MatchCase("iOS 9 details object", ios9, "https://example.com/a/1", "A 0.0"),
        MatchCase("iOS 9 details object, second key", ios9, "https://example.com/b", "B 1.0"),
        MatchCase("no applinks", #"{"webcredentials":{"apps":["\#(appA)"]}}"#, "https://example.com/x", "none"),
        MatchCase("appclips do not open apps", #"{"appclips":{"apps":["\#(appA).Clip"]}}"#, "https://example.com/x", "none"),
        MatchCase("http works too", single("[{}]"), "http://example.com/x", "A 0.0"),
        MatchCase("other schemes never open", single("[{}]"), "ftp://example.com/x", "none"),
        MatchCase("malformed component keeps indices", single(#"[5,{"/":"/a"}]"#), "https://example.com/a", "A 0.1"),
        MatchCase(
            "malformed entry keeps indices", #"{"applinks":{"details":["x",{"appIDs":["\#(appA)"],"components":[{}]}]}}"#,
            "https://example.com/a", "A 1.0"),
        MatchCase("wrong-typed flag is ignored", single(#"[{"/":"/a","exclude":"yes"}]"#), "https://example.com/a", "A 0.0"),
    ]

    @Test(arguments: cases)
    func decides(_ row: MatchCase) throws {
        #expect(try outcome(row.aasa, row.url) == row.expected)
    }

    @Test func perAppDecisions() throws {
        let matcher = AASAMatcher(try AASAFile.decode(Self.perAppExclude))
        let url = try AASAURL("https://example.com/x/1")
        let a = matcher.decision(for: url, appID: appA)
        #expect(a.outcome == .exclude && a.detailIndex == 0 && a.componentIndex == 0)
        let b = matcher.decision(for: url, appID: appB)
        #expect(b.outcome == .match && b.detailIndex == 1 && b.componentIndex == 0)
        #expect(b.rule?.effective.path == "/x/*")
        let unknown = matcher.decision(for: url, appID: "ZZZZZ99999.com.nobody")
        #expect(unknown.outcome == .noMatch && unknown.rule == nil)
        #expect(matcher.appIDs == [appA, appB])
    }

    @Test func appIDsCompareCaseInsensitively() throws {
        let matcher = AASAMatcher(try AASAFile.decode(single("[{}]")))
        #expect(matcher.decision(for: try AASAURL("https://example.com/"), appID: appA.uppercased()).outcome == .match)
    }

    @Test func traceStopsAtTheDecidingRule() throws {
        let matcher = AASAMatcher(try AASAFile.decode(single(#"[{"/":"/x"},{"/":"/a/*","exclude":true},{"/":"*"}]"#)))
        let trace = matcher.trace(for: try AASAURL("https://example.com/a/1"), appID: appA)
        #expect(trace.map(\.matched) == [false, true])
        #expect(trace.last?.rule.pointer == "/applinks/details/0/components/1")
        #expect(trace.last?.rule.isExclusion == true)
    }
}
