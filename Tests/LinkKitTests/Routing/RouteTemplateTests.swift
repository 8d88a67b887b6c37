import Testing
@testable import LinkKit

@Suite("RouteTemplate")
struct RouteTemplateTests {
    @Test(
        "AASA patterns generated from templates",
        arguments: [
            ("/widget/{id}", "/widget/?*"),
            ("/docs/{rest*}", "/docs/*"),
            ("/u/{user}/p/{post}", "/u/?*/p/?*"),
            ("/item-{id}.html", "/item-?*.html"),
            ("/about", "/about"),
            ("{id}", "?*"),
        ])
    func aasaPattern(template: String, pattern: String) throws {
        #expect(try RouteTemplate(template).aasaPattern == pattern)
    }

    /// ASCII templates are read byte by byte, others by character; both give these elements, and the text as written.
    @Test func elementsAsParsed() throws {
        #expect(
            try RouteTemplate("/u/{user}/p-{post}.x/{rest*}").elements == [
                .literal("/u/"), .capture(name: "user", rest: false), .literal("/p-"), .capture(name: "post", rest: false), .literal(".x/"),
                .capture(name: "rest", rest: true),
            ])
        #expect(try RouteTemplate("/café/{id}").elements == [.literal("/café/"), .capture(name: "id", rest: false)])
        #expect(try RouteTemplate("/a$b/{id}").elements == [.literal("/a$b/"), .capture(name: "id", rest: false)])
        for text in ["/u/{user}/p-{post}.x/{rest*}", "/café/{id}", "{id}"] {
            let template = try RouteTemplate(text)
            #expect(template.description == text)
            #expect(RouteTemplate(elements: template.elements) == template)
        }
    }

    @Test(
        "malformed templates are refused",
        arguments: [
            "/widget/{id", "/widget/id}", "/w/{1d}", "/w/{}", "/w/{id}{slug}", "/w/{rest*}/x", "/w/*", "/w/?", "/w/$(lang)", "/{a}/{a}",
            "/w/{*}", "{a}{b*}", "/{a*}x",
        ])
    func refused(template: String) {
        #expect(throws: LinkKitError.self) { try RouteTemplate(template) }
    }

    @Test(
        "captures extracted from paths",
        arguments: [
            ("/widget/{id}", "/widget/42", ["id": "42"]),
            ("/widget/{id}", "/widget/42/", ["id": "42"]),
            ("/widget/{id}", "/widget/42///", ["id": "42"]),
            ("/widget/{id}", "widget/42", ["id": "42"]),
            ("/docs/{rest*}", "/docs/a/b/c", ["rest": "a/b/c"]),
            ("/docs/{rest*}", "/docs", ["rest": ""]),
            ("/docs/{rest*}", "/docs/", ["rest": ""]),
            ("/u/{user}/p/{post}", "/u/ann/p/7", ["user": "ann", "post": "7"]),
            ("/item-{id}.html", "/item-12.html", ["id": "12"]),
            ("/f/{a}.{b}", "/f/x.y.z", ["a": "x.y", "b": "z"]),
            ("/s/{name}", "/s/caf%C3%A9", ["name": "café"]),
            ("/s/{name}", "/s/a%2Fb", ["name": "a/b"]),
        ] as [(String, String, [String: String])])
    func captures(template: String, path: String, expected: [String: String]) throws {
        #expect(try RouteTemplate(template).captures(in: path) == expected)
    }

    @Test(
        "paths without the template's shape give nil",
        arguments: [
            ("/widget/{id}", "/widget/"),
            ("/widget/{id}", "/widget"),
            ("/widget/{id}", "/widget/1/2"),
            ("/widget/{id}", "/Widget/1"),
            ("/about", "/about/us"),
            ("/a/{x}/c", "/a/c"),
            ("/item-{id}.html", "/item-.html"),
        ])
    func noCaptures(template: String, path: String) throws {
        #expect(try RouteTemplate(template).captures(in: path) == nil)
    }

    @Test func caseInsensitiveLiterals() throws {
        let template = try RouteTemplate("/Widget/{id}")
        #expect(template.captures(in: "/WIDGET/Ab", caseSensitive: false) == ["id": "Ab"])
        #expect(template.captures(in: "/WIDGET/Ab", caseSensitive: true) == nil)
    }

    @Test func percentEncodedFalseDecodesBeforeMatching() throws {
        let template = try RouteTemplate("/café/{id}")
        #expect(template.captures(in: "/caf%C3%A9/1", percentEncoded: false) == ["id": "1"])
        #expect(template.captures(in: "/caf%C3%A9/1", percentEncoded: true) == nil)
    }

    @Test("query values use no path rules")
    func queryValue() throws {
        let template = try RouteTemplate("{ref}")
        #expect(template.captures(in: "abc", isPath: false) == ["ref": "abc"])
        #expect(template.captures(in: "", isPath: false) == nil)
        #expect(template.captures(in: "a%20b", isPath: false) == ["ref": "a b"])
    }

    @Test(
        "render is the inverse of captures",
        arguments: [
            ("/widget/{id}", "/widget/42"),
            ("/docs/{rest*}", "/docs/a/b/c"),
            ("/u/{user}/p/{post}", "/u/ann%20lee/p/7"),
            ("/s/{name}", "/s/caf%C3%A9"),
        ])
    func roundTrip(template: String, path: String) throws {
        let route = try RouteTemplate(template)
        let captures = try #require(route.captures(in: path))
        #expect(route.render(captures) == path)
    }
}
