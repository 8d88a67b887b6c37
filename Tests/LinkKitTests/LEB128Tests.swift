@testable import LinkKit
import Testing

@Suite("LEB128")
struct LEB128Tests {
    @Test("round trip, with the size and bytes the format defines", arguments: [0, 1, 127, 128, 300, 16_383, 16_384, 1 << 31, Int.max])
    func roundTrip(_ value: Int) {
        var bytes: [UInt8] = [0xAA]
        LEB128.append(value, to: &bytes)
        #expect(bytes.count == 1 + LEB128.size(value))
        #expect(bytes.dropFirst().dropLast().allSatisfy { $0 >= 0x80 } && bytes.last! < 0x80)
        let (read, next) = LEB128.read(bytes, at: 1)
        #expect(read == value)
        #expect(next == bytes.count)
    }

    @Test func knownEncodings() {
        var bytes: [UInt8] = []
        LEB128.append(300, to: &bytes)
        #expect(bytes == [0xAC, 0x02])
        bytes = []
        LEB128.append(127, to: &bytes)
        #expect(bytes == [0x7F])
    }

    @Test func lengthPrefixedRuns() {
        var bytes: [UInt8] = []
        LEB128.append(3, to: &bytes)
        bytes += [7, 8, 9, 10]
        #expect(Array(bytes[LEB128.prefixedRange(bytes, at: 0)]) == [7, 8, 9])
    }
}
