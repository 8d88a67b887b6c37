import ByteText
import Testing

@Suite struct PercentTests {
    func decoded(_ text: String, plusAsSpace: Bool = false) -> String {
        let bytes = Array(text.utf8)
        let out = bytes.withUnsafeBufferPointer { input in
            [UInt8](unsafeUninitializedCapacity: input.count) { out, count in
                count = Percent.decode(input, plusAsSpace: plusAsSpace, into: out)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test func decodesEscapesInEitherCase() {
        #expect(decoded("a%2Fb%2fc") == "a/b/c")
        #expect(decoded("%C3%A9t%C3%A9") == "été")
        #expect(decoded("") == "")
    }

    @Test func malformedEscapesStayAsWritten() {
        #expect(decoded("100%") == "100%")
        #expect(decoded("%4") == "%4")
        #expect(decoded("%zz%41") == "%zzA")
        #expect(decoded("%%41") == "%A")
    }

    @Test func plusIsASpaceOnlyWhenAsked() {
        #expect(decoded("a+b%2B") == "a+b+")
        #expect(decoded("a+b%2B", plusAsSpace: true) == "a b+")
        #expect(Array("a+b".utf8).withUnsafeBufferPointer { Percent.hasEscapes($0, plusAsSpace: false) } == false)
        #expect(Array("a+b".utf8).withUnsafeBufferPointer { Percent.hasEscapes($0, plusAsSpace: true) })
        #expect(Array("a%b".utf8).withUnsafeBufferPointer { Percent.hasEscapes($0, plusAsSpace: false) })
    }

    @Test func decodedArrayMatchesDecodeInto() {
        let bytes = Array("x%41+%zz".utf8)
        #expect(bytes.withUnsafeBufferPointer(Percent.decoded) == Array("xA+%zz".utf8))
    }

    @Test func decodedTextRepairsInvalidUTF8() {
        #expect(Array("x%41+%zz".utf8).withUnsafeBufferPointer { Percent.decodedText($0, plusAsSpace: true) } == "xA %zz")
        #expect(Array("plain".utf8).withUnsafeBufferPointer { Percent.decodedText($0, plusAsSpace: false) } == "plain")
        #expect(Array("%FF%C3".utf8).withUnsafeBufferPointer { Percent.decodedText($0, plusAsSpace: false) } == "\u{FFFD}\u{FFFD}")
    }

    @Test(
        "a decoded NUL is noticed, only from %00",
        arguments: [
            ("%00", true), ("a%00b", true), ("%%00", true), ("%0%00", true),
            ("%2500", false), ("%0", false), ("%0g", false), ("00", false), ("%41%20", false), ("plain", false),
        ])
    func noticesDecodedNUL(text: String, expected: Bool) {
        var decodedNUL = false
        let decoded = Array(text.utf8).withUnsafeBufferPointer { Percent.decodedText($0, plusAsSpace: true, noticingNUL: &decodedNUL) }
        #expect(decodedNUL == expected)
        #expect(decoded.utf8.contains(0) == expected)
    }

    @Test func encodesBytesOutsideTheAllowedSetWithUpperCaseHex() {
        #expect(Percent.encoded("a b/é~", keeping: Percent.isUnreserved) == "a%20b%2F%C3%A9~")
        #expect(Percent.encoded("a b/é~\u{7F}%", keeping: Percent.isPrintableASCII) == "a%20b/%C3%A9~%7F%")
        #expect(Percent.encoded("x/y", keeping: { Percent.isUnreserved($0) || $0 == UInt8(ascii: "/") }) == "x/y")
        #expect(Percent.encoded("\u{0}\n", keeping: { _ in false }) == "%00%0A")
        #expect(Percent.encoded("", keeping: Percent.isUnreserved) == "")
    }

    @Test func encodingThenDecodingGivesTheTextBack() {
        let text = "dé/jà vu?&=+%"
        let encoded = Percent.encoded(text, keeping: Percent.isUnreserved)
        #expect(encoded.utf8.allSatisfy { Percent.isUnreserved($0) || $0 == UInt8(ascii: "%") })
        #expect(Array(encoded.utf8).withUnsafeBufferPointer { Percent.decodedText($0, plusAsSpace: false) } == text)
    }
}
