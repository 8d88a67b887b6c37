import LinkKit
import Testing

@Suite("Text limits")
struct TextLimitTests {
    @Test func countsCodePointsNotGraphemes() {
        let limit = TextLimit(scalars: 3)
        #expect(limit.allows("abc"))
        #expect(limit.allows("éé")) // 2 code points, 4 bytes
        #expect(!limit.allows("e\u{0301}\u{0301}\u{0301}")) // 1 grapheme, 4 code points
        #expect(limit.violation("abcd") == "is longer than 3 characters (Unicode code points)")
        #expect(TextLimit.length(of: "e\u{0301}") == 2)
        #expect(limit.bytes == 12)
    }

    @Test func boundsBytesToo() {
        let limit = TextLimit(scalars: 10, bytes: 4)
        #expect(limit.allows("abcd"))
        #expect(limit.allows("abé")) // 3 code points, 4 bytes
        #expect(!limit.allows("abcé")) // 4 code points, 5 bytes
        #expect(limit.violation("ééé") == "is longer than 4 bytes (UTF-8)")
    }

    @Test(arguments: Array(0x202A...0x202E) + Array(0x2066...0x2069))
    func namesRefuseBidirectionalControls(_ code: UInt32) {
        let name = TextLimit(scalars: 50, isName: true)
        let text = "invoice\(Character(Unicode.Scalar(code)!))gpj.exe"
        #expect(!name.allows(text))
        #expect(name.violation(text)?.contains("U+" + String(code, radix: 16, uppercase: true)) == true)
        #expect(TextLimit(scalars: 50).allows(text), "other text keeps them")
        #expect(name.lengthOnly.allows(text))
    }

    @Test func namesKeepTheMarksAndOtherText() {
        let name = TextLimit(scalars: 50, isName: true)
        for text in ["שלום\u{200F} 2", "a\u{200E}b", "عربي\u{061C}1", "–—…", "plain"] { #expect(name.allows(text), "\(text)") }
        #expect(name.violation(String(repeating: "a", count: 51) + "\u{202E}") == "is longer than 50 characters (Unicode code points)")
    }
}
