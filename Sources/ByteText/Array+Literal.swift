extension Array where Element == UInt8 {
    /// Appends a literal's UTF-8 bytes: a `StaticString` is its bytes, where appending `"…".utf8` walks a
    /// `String` view (~175 instructions a call on the resolve path, callgrind).
    @inlinable
    public mutating func append(literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }
}
