import ByteText
import Testing

@Suite struct QueryStringTests {
    func items(_ query: String) -> [String] {
        var found: [String] = []
        Array(query.utf8).withUnsafeBufferPointer { bytes in
            QueryString.forEachItem(bytes) { name, value in
                found.append(String(decoding: name, as: UTF8.self) + (value.map { "=" + String(decoding: $0, as: UTF8.self) } ?? " (no =)"))
            }
        }
        return found
    }

    @Test func splitsOnAmpersandsThenTheFirstEquals() {
        #expect(items("a=1&b=x+y&a=%2F") == ["a=1", "b=x+y", "a=%2F"])
        #expect(items("k=v=w") == ["k=v=w"])
        #expect(items("flag&k=") == ["flag (no =)", "k="])
        #expect(items("=v") == ["=v"])
    }

    @Test func emptyPiecesAreSkipped() {
        #expect(items("") == [])
        #expect(items("&&a=1&&b&") == ["a=1", "b (no =)"])
    }
}
