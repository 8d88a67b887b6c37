import Foundation
import LinkKit
@testable import LinkService
import Testing

@Suite("Stored rule definitions")
struct StoredDefinitionTests {
    static let apps = [UUID(), UUID()]

    /// What the generic reader (the API's) makes of `text`.
    static func generic(_ text: String) -> LinkRule {
        StoredRule.definition(json: try? JSONValue.parse(text), apps: apps).rule(id: "r")
    }

    static func fast(_ text: String) -> LinkRule? {
        Array(text.utf8).withUnsafeBufferPointer { StoredDefinition.read($0, apps: apps) }?.rule(id: "r")
    }

    static func input(_ text: String) -> LinkRule {
        StoredDefinition.definition(Array(text.utf8), apps: apps).rule(id: "r")
    }

    /// Texts as linkd writes them (compact) and as `jsonb` wrote them before migration 0008 (keys by length,
    /// `", "` and `": "`): read in one pass, as the API reads them.
    @Test(arguments: [
        #"{}"#,
        #"{"path":"/widget/{id}","query":{"tab":"{tab}"},"destination":{"type":"widgetDetail","params":{"id":"{id}"}}}"#,
        #"{"path": "/widget/{id}", "destination": {"type": "widgetDetail"}}"#,
        #"{"path": "/x0/*", "exclude": true}"#,
        #"{"path": "/q1/{id}", "query": {"tab": "*"}, "destination": {"type": "widgetDetail"}}"#,
        #"{"path": "/a/{slug}", "query": {"ref": "{ref}", "utm": "camp_*"}, "comment": "Spring campaign é", "fragment": "top-{section}", "destination": {"type": "article", "params": {"id": "{slug}", "n": 42, "x": -1.5e3, "on": true, "off": false, "tab": "info", "raw": "{}"}}}"#,
        #"{"path": "/p", "query": "a=*", "exclude": false, "caseSensitive": false, "percentEncoded": true}"#,
        #"{"path": null, "query": null, "comment": null, "exclude": null, "fragment": null, "destination": null}"#,
        #"{"destination": {"type": null, "params": null}}"#,
        #"{"destination": {"type": "9bad", "params": {"id": "{id}"}}}"#,
        #"{"path": "/bad/{", "fragment": "{a}{b}"}"#,
        #"{"query": {"a": "{x", "b": "*"}}"#,
        " \n{\t\"path\" : \"/s\" } \r\n",
        "{\"path\": \"/" + String(repeating: "é", count: 600) + "\"}", // 601 code points in 1,201 bytes: within the limit
    ])
    func readsTheStoredShapesInOnePass(text: String) {
        #expect(Self.fast(text) == Self.generic(text), "\(text)")
        #expect(Self.input(text) == Self.generic(text))
    }

    /// Anything else goes to the generic reader, which reads it as the API does (errors left out).
    @Test(arguments: [
        "",
        "[]",
        "null",
        #"{"path": "/a\/b"}"#,
        #"{"path": "/a\u0041"}"#,
        #"{"comment": "tab\there"}"#,
        #"{"path": "/a", "path": "/b"}"#,
        #"{"path": "/a", "apps": ["x"]}"#,
        #"{"unknown": 1}"#,
        #"{"exclude": "yes"}"#,
        #"{"exclude": 1}"#,
        #"{"path": 5}"#,
        #"{"query": 5}"#,
        #"{"query": {"": "*"}}"#,
        #"{"query": {"a": "*", "a": "b"}}"#,
        #"{"query": {"a": 1, "b": "*"}}"#,
        #"{"destination": "widget"}"#,
        #"{"destination": {"type": "w", "extra": 1}}"#,
        #"{"destination": {"type": "w", "type": "v"}}"#,
        #"{"destination": {"type": "w", "params": []}}"#,
        #"{"destination": {"type": "w", "params": {"a": null, "b": "{b}"}}}"#,
        #"{"destination": {"type": "w", "params": {"a": [1], "b": "{b}"}}}"#,
        #"{"destination": {"type": "w", "params": {"a": "1", "a": "2"}}}"#,
        #"{"destination": {"type": "w", "params": {"a": 01}}}"#,
        #"{"destination": {"type": "w", "params": {"a": 1.}}}"#,
        #"{"destination": {"type": "w", "params": {"a": -}}}"#,
        #"{"path": "/a",}"#,
        #"{"path": "/a"} x"#,
        #"{"path": "/a""#,
        #"{"path" "/a"}"#,
        #"{"exclude": truex}"#,
        "\u{FEFF}{\"path\": \"/bom\"}",
        "{\"comment\": \"" + String(repeating: "c", count: 501) + "\"}",
        "{\"path\": \"/" + String(repeating: "p", count: 1024) + "\"}",
        "{\"path\": \"/" + String(repeating: "é", count: 1024) + "\"}", // 1,025 code points: over the limit
        "{\"query\": \"" + String(repeating: "q", count: 1025) + "\"}",
        "{\"query\": {\"" + String(repeating: "k", count: 257) + "\": \"*\"}}",
        "{\"query\": {\"k\": \"" + String(repeating: "q", count: 1025) + "\"}}",
        "{\"destination\": {\"type\": \"w\", \"params\": {\"a\": \"" + String(repeating: "v", count: 1001) + "\"}}}",
    ])
    func leavesEverythingElseToTheGenericReader(text: String) {
        #expect(Self.fast(text) == nil, "\(text)")
        #expect(Self.input(text) == Self.generic(text), "\(text)")
    }

    /// Random definitions from the pieces above, in PostgreSQL's layout and compact: both readers agree on each.
    @Test func agreesWithTheGenericReaderOnRandomDefinitions() {
        var generator = SystemRandomNumberGenerator()
        let strings = [
            #""/s/{id}""#, #""/x/*""#, #""*""#, #""{a}-{b}""#, #""é/{id}""#, #""a\"b""#, #""{""#, #""{x}""#, #""""#, "null", "true", "7",
        ]
        let values =
            strings + [
                "false", "-0.5E+2", "{}", #"{"k": "v"}"#, #"{"k": 1}"#, "[]", #"{"type": "w"}"#,
                #"{"type": "w", "params": {"id": "{id}", "n": 2, "b": true}}"#, #"{"type": "9", "params": null}"#,
            ]
        let keys = ["path", "query", "fragment", "exclude", "caseSensitive", "percentEncoded", "comment", "destination", "other"]
        var fastReads = 0
        for _ in 0..<2_000 {
            let members = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                (keys.randomElement(using: &generator)!, values.randomElement(using: &generator)!)
            }
            let spaced = Bool.random(using: &generator)
            let text = "{" + members.map { "\"\($0.0)\"\(spaced ? ": " : ":")\($0.1)" }.joined(separator: spaced ? ", " : ",") + "}"
            if Self.fast(text) != nil { fastReads += 1 }
            #expect(Self.input(text) == Self.generic(text), "\(text)")
        }
        #expect(fastReads > 100)
    }
}
