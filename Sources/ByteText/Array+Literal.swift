extension Array where Element == UInt8 {
    /// Appends a literal's UTF-8 bytes: a `StaticString` is its bytes, where appending `"…".utf8` walks a
    /// `String` view on every call.
    @inlinable
    public mutating func append(literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }
}
