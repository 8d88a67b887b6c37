import ByteText
import Testing

@Suite struct ASCIITests {
    @Test func lowercasesOnlyASCIILetters() {
        for byte in (0...255).map(UInt8.init) {
            let expected = (65...90).contains(byte) ? byte + 32 : byte
            #expect(ASCII.lowercased(byte) == expected, "\(byte)")
        }
    }

    @Test func tokenCharactersAreRFC9110s() {
        let expected = Array("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8).sorted()
        #expect((0...255).map(UInt8.init).filter(ASCII.isTokenCharacter) == expected)
    }

    @Test func blanksAreSpacesAndTabsOnly() {
        #expect((0...255).map(UInt8.init).filter(ASCII.isBlank) == [9, 32])
    }

    @Test(arguments: [("", ""), ("  ", ""), ("\t a b \t", "a b"), ("ab", "ab"), (" \r\n", "\r\n")])
    func trimmingBlanksKeepsTheMiddle(text: String, expected: String) {
        var text = text
        let trimmed = text.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[ASCII.trimmingBlanks($0)]), as: UTF8.self) }
        #expect(trimmed == expected)
    }

    @Test func lowercasedTextFoldsOnlyASCII() {
        #expect(ASCII.lowercasedText(Array("Links.EXAMPLE.com:443".utf8)) == "links.example.com:443")
        #expect(ASCII.lowercasedText(Array("BÜCHER".utf8)[...]) == "bÜcher")
        #expect(ASCII.lowercasedText([UInt8]()) == "")
    }

    @Test(arguments: [
        ("Content-Length", "content-length", true), ("X-Request-ID", "x-request-id", true), ("", "", true),
        ("Host", "Hosts", false), ("Host", "Hose", false), ("ÜBER", "über", false), ("a[", "A{", false), ("@", "`", false),
    ])
    func equalIgnoringCaseFoldsOnlyASCIILetters(_ lhs: String, _ rhs: String, _ equal: Bool) {
        let same = Array(lhs.utf8).withUnsafeBufferPointer { left in
            Array(rhs.utf8).withUnsafeBufferPointer { right in ASCII.equalIgnoringCase(left, right) }
        }
        #expect(same == equal)
    }
}
