import Foundation
import ByteText
import Testing

@Suite("JSONString")
struct JSONStringTests {
    static let samples = [
        "", "plain", "https://links.example.com/widget/42?tab=reviews", "a\u{01}b\\c/d", "quote \" in the middle",
        "\"", "\\", "tab\there\nnew line\r", "\u{1F}\u{00}end", "é😀 non-ASCII", "ends with escape\n", "\u{7F} is not escaped",
    ]

    @Test("text and bytes agree, and Foundation reads back the value", arguments: samples)
    func roundTrips(_ value: String) throws {
        var text = "", bytes: [UInt8] = []
        JSONString.append(value, to: &text)
        JSONString.append(value, to: &bytes)
        #expect(Array(text.utf8) == bytes)
        let decoded = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) as? String
        #expect(decoded == value)
    }

    @Test func escapesOnlyWhatRFC8259Requires() {
        #expect(JSONString.quoted("a\u{01}b\\c/d\"e\u{7F}") == #""a\u0001b\\c/d\"e"# + "\u{7F}\"")
        #expect(JSONString.quoted("\n\r\t") == #""\n\r\t""#)
    }

    @Test func appendsToWhatIsAlreadyThere() {
        var bytes = Array("[".utf8)
        JSONString.append("x\"", to: &bytes)
        bytes.append(UInt8(ascii: "]"))
        #expect(String(decoding: bytes, as: UTF8.self) == #"["x\""]"#)
    }
}
