import Foundation
import TestSupport
import Testing

/// `linkd aasa decide` through the real binary: every case of the spec's examples file, plus the error protocol.
@Suite struct AASADecideTests {
    /// The examples file, shared with LinkKitTests (hidden folder, so SwiftPM does not want it declared).
    static var examples: [[String: Any]] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("LinkKitTests/.fixtures/aasa-examples.json")
        let data = try! Data(contentsOf: file)
        return try! JSONSerialization.jsonObject(with: data) as! [[String: Any]]
    }

    static func appIDs(_ aasa: [String: Any]) -> [String] {
        guard let applinks = aasa["applinks"] as? [String: Any] else { return [] }
        var apps: [String] = []
        if let details = applinks["details"] as? [[String: Any]] {
            for detail in details {
                for app in (detail["appIDs"] as? [String] ?? []) + [detail["appID"] as? String].compactMap({ $0 }) where !apps.contains(app)
                {
                    apps.append(app)
                }
            }
        }
        return apps
    }

    @Test func everyExamplePassesThroughDecide() throws {
        var lines: [String] = []
        var expectations: [(id: String, expect: [String: Any], apps: [String])] = []
        for example in Self.examples {
            guard let aasa = example["aasa"] as? [String: Any] else { continue }
            let id = example["id"] as! String
            // Ask for every app of the file (and one unknown app), then combine the per-app answers the way
            // docs/aasa-semantics.md §3 steps 4–5 do, and compare with the expected winner.
            let apps = Self.appIDs(aasa) + ["ZZZZZ99999.com.unknown"]
            for (index, app) in apps.enumerated() {
                let line: [String: Any] = [
                    "id": "\(id)#\(index)", "aasa": aasa, "domain": "example.com", "appId": app, "url": example["url"] as! String,
                ]
                lines.append(String(decoding: try JSONSerialization.data(withJSONObject: line), as: UTF8.self))
            }
            expectations.append((id, example["expect"] as! [String: Any], apps))
        }
        #expect(expectations.count >= 31)
        let result = try LinkdProcess.run(["aasa", "decide"], input: lines.joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        let answers = result.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(answers.count == lines.count)
        var byID: [String: [String: Any]] = [:]
        for answer in answers { byID[answer["id"] as! String] = answer }
        for expectation in expectations {
            var winner: (app: String?, detail: Int, component: Int)?
            var block: (detail: Int, component: Int)?
            for (index, app) in expectation.apps.enumerated() {
                let answer = try #require(byID["\(expectation.id)#\(index)"])
                guard let detail = answer["detailIndex"] as? Int, let component = answer["componentIndex"] as? Int else {
                    #expect(answer["decision"] as? String == "no_match", "\(expectation.id)")
                    continue
                }
                switch answer["decision"] as? String {
                case "match":
                    if winner == nil || (detail, component) < (winner!.detail, winner!.component) { winner = (app, detail, component) }
                case "exclude":
                    if block == nil || (detail, component) < block! { block = (detail, component) }
                default:
                    Issue.record("\(expectation.id): unexpected answer \(answer)")
                }
            }
            let expect = expectation.expect
            let place = winner.map { ($0.detail, $0.component) } ?? block
            #expect(winner?.app == expect["appID"] as? String, "\(expectation.id)")
            #expect(place?.0 == expect["detailIndex"] as? Int, "\(expectation.id)")
            #expect(place?.1 == expect["componentIndex"] as? Int, "\(expectation.id)")
        }
    }

    static let aasa =
        #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/a/*","exclude":true},{"/":"*"}]}]}}"#

    @Test(arguments: [
        (
            #"{"id":1,"aasa":\#(aasa),"domain":"example.com","appId":"ABCDE12345.com.example.app","url":"https://example.com/b"}"#,
            #"{"id":1,"decision":"match","detailIndex":0,"componentIndex":1}"#
        ),
        (
            #"{"id":"x","aasa":\#(aasa),"domain":"example.com","appId":"ABCDE12345.com.example.app","url":"https://example.com/a/1"}"#,
            #"{"id":"x","decision":"exclude","detailIndex":0,"componentIndex":0}"#
        ),
        (
            #"{"id":{"k":[1,2.50]},"aasa":\#(aasa),"domain":"example.com","appId":"OTHER12345.com.x","url":"https://example.com/b"}"#,
            #"{"id":{"k":[1,2.50]},"decision":"no_match","detailIndex":null,"componentIndex":null}"#
        ),
        (
            #"{"id":3,"aasa":\#(aasa),"domain":"Example.COM","appId":"ABCDE12345.com.example.app","url":"https://EXAMPLE.com./b"}"#,
            #"{"id":3,"decision":"match","detailIndex":0,"componentIndex":1}"#
        ),
        (
            #"{"id":4,"aasa":\#(aasa),"domain":"example.com","appId":"ABCDE12345.com.example.app","url":"https://other.example.com/b"}"#,
            #"{"id":4,"decision":"no_match","detailIndex":null,"componentIndex":null}"#
        ),
        (
            #"{"id":5,"aasa":\#(aasa),"domain":"*.example.com","appId":"ABCDE12345.com.example.app","url":"https://www.example.com/b"}"#,
            #"{"id":5,"decision":"match","detailIndex":0,"componentIndex":1}"#
        ),
        (
            #"{"id":6,"aasa":{"webcredentials":{"apps":[]}},"domain":"example.com","appId":"A.b","url":"https://example.com/"}"#,
            #"{"id":6,"decision":"no_match","detailIndex":null,"componentIndex":null}"#
        ),
        (
            #"{"id":12345678901234567890,"aasa":\#(aasa),"domain":"example.com","appId":"ABCDE12345.com.example.app","url":"https://example.com/"}"#,
            #"{"id":12345678901234567890,"decision":"match","detailIndex":0,"componentIndex":1}"#
        ),
    ])
    func answersOneLine(_ input: String, _ expected: String) throws {
        let result = try LinkdProcess.run(["aasa", "decide"], input: input + "\n")
        #expect(result.status == 0)
        #expect(result.stdout == expected + "\n")
    }

    @Test func badLinesGetAnErrorAndTheRunGoesOn() throws {
        let good =
            #"{"id":9,"aasa":\#(Self.aasa),"domain":"example.com","appId":"ABCDE12345.com.example.app","url":"https://example.com/b"}"#
        let input = [
            "not json", #"{"id":1}"#, #"{"id":2,"aasa":[],"domain":"example.com","appId":"A.b","url":"https://example.com/"}"#,
            #"{"id":3,"aasa":{},"domain":"example.com","appId":"A.b","url":"example.com/x"}"#,
            #"{"id":4,"aasa":{},"domain":5,"appId":"A.b","url":"https://example.com/"}"#, "[1]", "", good,
        ].joined(separator: "\n")
        let result = try LinkdProcess.run(["aasa", "decide"], input: input)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(result.status == 0)
        #expect(lines.count == 7)
        #expect(lines[0].hasPrefix(#"{"id":null,"error":"#))
        #expect(lines[1].hasPrefix(#"{"id":1,"error":"#) && lines[1].contains("aasa"))
        #expect(lines[2].hasPrefix(#"{"id":2,"error":"#))
        #expect(lines[3].hasPrefix(#"{"id":3,"error":"#) && lines[3].contains("scheme"))
        #expect(lines[4].hasPrefix(#"{"id":4,"error":"#) && lines[4].contains("domain"))
        #expect(lines[5].hasPrefix(#"{"id":null,"error":"#))
        #expect(lines[6] == #"{"id":9,"decision":"match","detailIndex":0,"componentIndex":1}"#)
    }

    @Test func decideTakesNoArguments() throws {
        #expect(try LinkdProcess.run(["aasa", "decide", "x"]).status == 2)
    }
}
