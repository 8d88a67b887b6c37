/// ASCII case and blanks on single bytes (UTF-8 bytes of non-ASCII characters are never letters or blanks here).
public enum ASCII {
    /// `byte` lower-cased when it is `A`-`Z`, as it is otherwise.
    @inlinable
    public static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// `bytes` as text with ASCII letters lower-cased, written once into the string's own storage (other bytes as
    /// they are; invalid UTF-8 is repaired by `String`).
    @inlinable
    public static func lowercasedText(_ bytes: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { out in
            for (offset, byte) in zip(out.indices, bytes) { out[offset] = lowercased(byte) }
            return bytes.count
        }
    }

    /// Whether `lhs` and `rhs` are the same bytes but for the case of ASCII letters (header names, hostnames,
    /// case-insensitive template literals, an `Authorization` scheme).
    @inlinable
    public static func equalIgnoringCase(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var right = rhs.makeIterator()
        for byte in lhs {
            guard let other = right.next(), byte == other || lowercased(byte) == lowercased(other) else { return false }
        }
        return true
    }

    /// Whether `byte` is a space or a horizontal tab: HTTP's optional whitespace (RFC 9110 §5.6.3, OWS).
    @inlinable
    public static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// Whether `byte` may appear in a token, such as a header field name (RFC 9110 §5.6.2, tchar): a letter, a
    /// digit, or one of ``!#$%&'*+-.^_`|~``. A bit set of the 128 ASCII bytes, tested with a shift.
    @inlinable
    public static func isTokenCharacter(_ byte: UInt8) -> Bool {
        // Bits 0-63: `!` 33, `#` 35, `$` 36, `%` 37, `&` 38, `'` 39, `*` 42, `+` 43, `-` 45, `.` 46, `0`-`9` 48-57.
        // Bits 64-127: `A`-`Z` 65-90, `^` 94, `_` 95, `` ` `` 96, `a`-`z` 97-122, `|` 124, `~` 126.
        let low: UInt64 = 0x03FF_6CFA_0000_0000
        let high: UInt64 = 0x57FF_FFFF_C7FF_FFFE
        if byte < 64 { return low >> UInt64(byte) & 1 == 1 }
        if byte < 128 { return high >> UInt64(byte - 64) & 1 == 1 }
        return false
    }

    /// The indices of `bytes` without the blanks at either end (the OWS around a header field's value).
    @inlinable
    public static func trimmingBlanks(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var start = 0, end = bytes.count
        while start < end, isBlank(bytes[start]) { start += 1 }
        while end > start, isBlank(bytes[end - 1]) { end -= 1 }
        return start..<end
    }
}
