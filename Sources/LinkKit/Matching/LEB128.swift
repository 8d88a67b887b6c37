/// Unsigned LEB128 numbers (7 bits a byte, low group first, the high bit set on all but the last byte): the lengths
/// and counts inside the packed forms (`Pattern` code, `CompiledRuleSet`, `PackedRules`).
enum LEB128 {
    /// Appends `value` (not negative).
    static func append(_ value: Int, to out: inout [UInt8]) {
        var rest = UInt(value)
        while rest >= 0x80 {
            out.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
    }

    /// How many bytes `append` writes for `value`.
    static func size(_ value: Int) -> Int {
        var size = 1
        var rest = UInt(value) >> 7
        while rest > 0 { size += 1; rest >>= 7 }
        return size
    }

    /// The number at `index`, and the index just after it.
    static func read<C: RandomAccessCollection<UInt8>>(_ bytes: C, at index: Int) -> (value: Int, next: Int) where C.Index == Int {
        var index = index
        var value = 0
        var shift = 0
        while true {
            let byte = bytes[index]
            index += 1
            value |= Int(byte & 0x7F) << shift
            if byte < 0x80 { return (value, index) }
            shift += 7
        }
    }

    /// The bytes of a length-prefixed run whose length is at `index`.
    static func prefixedRange<C: RandomAccessCollection<UInt8>>(_ bytes: C, at index: Int) -> Range<Int> where C.Index == Int {
        let (length, start) = read(bytes, at: index)
        return start..<start + length
    }
}
