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

    /// The escaper tests eight bytes at a time: every byte that needs an escape is still found wherever it stands
    /// (bytes beyond ASCII, next to one another, in a word's last place, in a tail of less than eight).
    @Test func escapesEveryByteWhereverItStands() {
        var generator = SplitMix64(seed: 53)
        let alphabet: [UInt8] = [
            0x00, 0x01, 0x08, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x21, 0x22, 0x2F, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF,
        ]
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 40)
            let bytes = (0..<count).map { _ -> UInt8 in
                generator.next() % 3 == 0
                    ? alphabet[Int(generator.next() % UInt64(alphabet.count))] : UInt8(truncatingIfNeeded: generator.next())
            }
            var escaped: [UInt8] = []
            bytes.withUnsafeBufferPointer { JSONString.appendEscaped(bytes: $0, to: &escaped) }
            #expect(escaped == Self.escapedByteByByte(bytes), "\(bytes)")
            var quoted: [UInt8] = []
            JSONString.appendQuoted(to: &quoted) { $0.append(contentsOf: bytes) }
            #expect(quoted == [0x22] + Self.escapedByteByByte(bytes) + [0x22], "\(bytes)")
        }
    }

    /// The escape of RFC 8259 §7 written one byte at a time, the reference for the escaper.
    static func escapedByteByByte(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for byte in bytes {
            switch byte {
            case 0x22: out += Array(#"\""#.utf8)
            case 0x5C: out += Array(#"\\"#.utf8)
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case ..<0x20: out += Array(String(format: "\\u%04x", Int(byte)).utf8)
            default: out.append(byte)
            }
        }
        return out
    }

    @Test func appendsToWhatIsAlreadyThere() {
        var bytes = Array("[".utf8)
        JSONString.append("x\"", to: &bytes)
        bytes.append(UInt8(ascii: "]"))
        #expect(String(decoding: bytes, as: UTF8.self) == #"["x\""]"#)
    }
}
