import Testing
@testable import LinkKit

@Suite struct AASAURLTests {
    @Test(
        arguments: [
            ("https://example.com/a/b?c=d#e", "https", "example.com", nil, "/a/b", "c=d", "e"),
            ("HTTPS://Example.COM./x", "https", "example.com", nil, "/x", nil, nil),
            ("https://example.com", "https", "example.com", nil, "", nil, nil),
            ("https://user:pw@example.com:8443/p", "https", "example.com", 8443, "/p", nil, nil),
            ("https://example.com/#/route?x", "https", "example.com", nil, "/", nil, "/route?x"),
            ("https://example.com?q", "https", "example.com", nil, "", "q", nil),
            ("https://example.com/a?b?c#d#e", "https", "example.com", nil, "/a", "b?c", "d#e"),
            ("https://example.com/café", "https", "example.com", nil, "/caf%C3%A9", nil, nil),
            ("https://example.com/a b", "https", "example.com", nil, "/a%20b", nil, nil),
            ("https://example.com/%c3%a9", "https", "example.com", nil, "/%c3%a9", nil, nil),
            ("https://Bücher.example/ü?ü#ü", "https", "xn--bcher-kva.example", nil, "/%C3%BC", "%C3%BC", "%C3%BC"),
            ("Https://BÜCHER.Example./Ü", "https", "xn--bcher-kva.example", nil, "/%C3%9C", nil, nil),
            ("hTTp://WWW.EXAMPLE.COM", "http", "www.example.com", nil, "", nil, nil),
            ("https://[::1]:80/x", "https", "[::1]", 80, "/x", nil, nil),
        ] as [(String, String, String, Int?, String, String?, String?)])
    func splits(
        _ text: String, _ scheme: String, _ host: String, _ port: Int?, _ path: String, _ query: String?, _ fragment: String?
    ) throws {
        let url = try AASAURL(text)
        #expect(url.scheme == scheme)
        #expect(url.host == host)
        #expect(url.port == port)
        #expect(url.path == path)
        #expect(url.query == query)
        #expect(url.fragment == fragment)
    }

    @Test(arguments: ["example.com/x", "/x", "https:/x", "https://example.com:99999/", "https://example.com:8x/", "", "1http://x.com/"])
    func rejects(_ text: String) {
        #expect(throws: LinkKitError.self) { try AASAURL(text) }
    }
}

@Suite struct CustomSchemeURLTests {
    /// The authority of a custom-scheme link is its first path segment (docs/LINKS.md).
    @Test(arguments: [
        "widgets://widget/42?tab=reviews", "widgets:///widget/42?tab=reviews", "WIDGETS://widget/42?tab=reviews",
        "widgets:widget/42?tab=reviews", "widgets:/widget/42?tab=reviews",
    ])
    func firstSegmentIsPath(_ text: String) throws {
        let url = try AASAURL(text)
        #expect(url.scheme == "widgets" && url.host == "" && !url.isWeb)
        #expect(url.path == "/widget/42" && url.query == "tab=reviews" && url.fragment == nil)
        #expect(url.text == "widgets://widget/42?tab=reviews")
        #expect(url.universal(on: "links.example.com").text == "https://links.example.com/widget/42?tab=reviews")
    }

    /// The links a resolve answer writes as bytes are the texts `universal(on:)` and `customSchemeText` make.
    @Test(arguments: [
        "https://links.example.com/widget/42?tab=reviews", "https://user@links.example.com:8443/a/b#c", "https://links.example.com",
        "https://links.example.com/?", "https://links.example.com/#", "https://Links.Example.com/café?é=ü#ä", "widgets://widget/42?x#y",
        "widgets:", "widgets:///", "widgets:a", "http://links.example.com/a%2Fb?q=%22",
    ])
    func linksWrittenAsBytesAreTheTexts(_ text: String) throws {
        let url = try AASAURL(text)
        var universal: [UInt8] = []
        url.appendUniversalText(on: "links.example.com", to: &universal)
        #expect(String(decoding: universal, as: UTF8.self) == url.universal(on: "links.example.com").text)
        var scheme: [UInt8] = []
        url.appendCustomSchemeText(scheme: "widgets", to: &scheme)
        let expected = AASAURL.customSchemeText(scheme: "widgets", path: url.path, query: url.query, fragment: url.fragment)
        #expect(String(decoding: scheme, as: UTF8.self) == expected)
    }

    @Test func requestPartsAreTakenAsTheyAre() throws {
        let url = AASAURL(https: "links.example.com", path: "/a b/é", query: "q=1")
        #expect(url == (try AASAURL("https://links.example.com/a b/é?q=1")))
    }
}
