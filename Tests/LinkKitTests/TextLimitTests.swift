import LinkKit
import Testing

@Suite("Text limits")
struct TextLimitTests {
    @Test func countsCodePointsNotGraphemes() {
        let limit = TextLimit(scalars: 3)
        #expect(limit.allows("abc"))
        #expect(limit.allows("éé"))                                  // 2 code points, 4 bytes
        #expect(!limit.allows("e\u{0301}\u{0301}\u{0301}"))          // 1 grapheme, 4 code points
        #expect(limit.violation("abcd") == "is longer than 3 characters (Unicode code points)")
        #expect(TextLimit.length(of: "e\u{0301}") == 2)
        #expect(limit.bytes == 12)
    }

    @Test func boundsBytesToo() {
        let limit = TextLimit(scalars: 10, bytes: 4)
        #expect(limit.allows("abcd"))
        #expect(limit.allows("abé"))                                 // 3 code points, 4 bytes
        #expect(!limit.allows("abcé"))                               // 4 code points, 5 bytes
        #expect(limit.violation("ééé") == "is longer than 4 bytes (UTF-8)")
    }
}
