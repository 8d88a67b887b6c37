/// ASCII case on single bytes (UTF-8 bytes of non-ASCII characters are never letters here).
public enum ASCII {
    /// `byte` lower-cased when it is `A`-`Z`, as it is otherwise.
    @inlinable
    public static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
