import ByteText
@testable import LinkKit
import Testing

@Suite("The path carried to the web fallback")
struct FallbackURLTests {
    @Test(
        arguments: [
            // path, query, fallback, expected
            ("/widget/42", "tab=info", "https://www.example.com", "https://www.example.com/widget/42?tab=info"),
            ("/", nil, "https://www.example.com/", "https://www.example.com/"),
            (#"/\evil.example"#, nil, "https://www.example.com", "https://www.example.com/%5Cevil.example"),
            ("//evil.example", nil, "https://www.example.com", "https://www.example.com/evil.example"),
            ("/%2F%2Fevil.example", nil, "https://www.example.com", "https://www.example.com/%2F%2Fevil.example"),
            ("/a/../../../b/%2e%2E/c/./d/", nil, "https://www.example.com/base", "https://www.example.com/base/c/d/"),
            ("/caf%C3%A9/café", nil, "https://www.example.com", "https://www.example.com/caf%C3%A9/caf%C3%A9"),
            ("/a%zz\"<>", nil, "https://www.example.com", "https://www.example.com/a%25zz%22%3C%3E"),
            ("/path", nil, "https://www.example.com/base?x=1", "https://www.example.com/base/path?x=1"),
            ("/path", "y=2&x=9&&x", "https://www.example.com/base/?x=1#top", "https://www.example.com/base/path?x=1&y=2#top"),
            ("/p", "q=a%20b+c&r=%zz|\\", "https://www.example.com", "https://www.example.com/p?q=a%20b+c&r=%25zz%7C%5C"),
        ] as [(String, String?, String, String)])
    func carries(path: String, query: String?, fallback: String, expected: String) {
        #expect(FallbackURL.carrying(path: path, query: query, to: fallback) == expected)
        #expect(FallbackURL.carryingText(path: path, query: query, to: fallback) == expected)
    }

    /// ASCII is joined as bytes, anything else by characters: both read every ASCII input alike. Random paths,
    /// queries and fallbacks over the bytes that matter (`/ . % & = ? # + \`, hex digits, letters, controls).
    @Test func bytesAndCharactersJoinAlike() {
        var generator = SplitMix64(seed: 53)
        let alphabet = Array("/./%&=?#+\\aF2e0z~:@!$'()*,;\" <>|^`{}\t".utf8)
        func text(_ length: Int) -> String {
            String(decoding: (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }, as: UTF8.self)
        }
        let bases = [
            "https://www.example.com", "https://www.example.com/", "https://www.example.com/base?x=1&y",
            "https://www.example.com/b/?a%20b=1&&c=2#top", "https://www.example.com#", "https://www.example.com/?",
        ]
        for round in 0..<20_000 {
            let path = (round % 3 == 0 ? "" : "/") + text(Int(generator.next() % 24))
            let query = round % 5 == 0 ? nil : text(Int(generator.next() % 16))
            let base = bases[round % bases.count]
            let bytes = FallbackURL.carrying(path: path, query: query, to: base)
            let characters = FallbackURL.carryingText(path: path, query: query, to: base)
            #expect(bytes == characters, "path \(path.debugDescription), query \(query.debugDescription), base \(base)")
            if bytes != characters { return }
        }
    }
}
