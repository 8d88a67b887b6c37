import ByteText
import Testing

@Suite struct ASCIITests {
    @Test func lowercasesOnlyASCIILetters() {
        for byte in (0...255).map(UInt8.init) {
            let expected = (65...90).contains(byte) ? byte + 32 : byte
            #expect(ASCII.lowercased(byte) == expected, "\(byte)")
        }
    }
}
