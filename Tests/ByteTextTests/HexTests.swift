import ByteText
import Testing

@Suite struct HexTests {
    @Test func encodesLowerCase() {
        #expect(Hex.encode([0x00, 0x0f, 0xa5, 0xff]) == "000fa5ff")
        #expect(Hex.encode([UInt8]()) == "")
        var out = Array("x".utf8)
        Hex.append([0x12, 0xab], to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "x12ab")
    }

    @Test func readsEitherCaseAndNothingElse() {
        let all = Array("0123456789abcdef".utf8)
        for (value, byte) in all.enumerated() {
            #expect(Hex.value(byte) == UInt8(value))
            #expect(Hex.digit(UInt8(value)) == byte)
        }
        for (value, byte) in "ABCDEF".utf8.enumerated() { #expect(Hex.value(byte) == UInt8(value + 10)) }
        for byte in (0...255).map(UInt8.init) where !all.contains(byte) && !"ABCDEF".utf8.contains(byte) {
            #expect(Hex.value(byte) == nil, "\(byte)")
        }
    }

    @Test func roundTripsEveryByte() {
        let bytes = (0...255).map(UInt8.init)
        let text = Array(Hex.encode(bytes).utf8)
        let back = stride(from: 0, to: text.count, by: 2).map { Hex.value(text[$0])! << 4 | Hex.value(text[$0 + 1])! }
        #expect(back == bytes)
    }
}
