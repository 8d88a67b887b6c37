import ByteText

/// A request's query items, `+` and `%XX` decoded (malformed escapes kept as written) into one buffer once, as the
/// request is made: a handler reads a value as text (`value(_:)`) or parses it where it lies (`withValue(named:_:)`),
/// so a request makes strings only of the values its handler reads as text.
public struct DecodedQuery: Sendable {
    /// The items in order, each an 8-byte head (its name's byte count, with `nonASCII` set when the name holds a byte
    /// past ASCII, then its value's byte count: two native-endian `UInt32`s) followed by the name's and the value's
    /// bytes.
    @usableFromInline let storage: [UInt8]
    @usableFromInline static let nonASCII: UInt32 = 1 << 31
    @usableFromInline static let head = 8

    /// No items.
    public init() { storage = [] }

    /// The items of `raw` (`a=1&b=x+y&a=%2F`), split as `QueryString.forEachItem` splits them (empty pieces skipped;
    /// a piece without `=` has an empty value), then decoded; `decodedNUL` is set when a name or value holds a NUL
    /// (`%00`).
    init(_ raw: UnsafeBufferPointer<UInt8>, noticingNUL decodedNUL: inout Bool) {
        var separators = 0
        for byte in raw where byte == UInt8(ascii: "&") { separators += 1 }
        // Decoding never lengthens: the raw bytes and a head an item are room enough, allocated once.
        storage = [UInt8](unsafeUninitializedCapacity: raw.count + Self.head * (separators + 1)) { out, count in
            var at = 0
            QueryString.forEachItem(raw) { name, value in
                let nameStart = at + Self.head
                let nameCount = Percent.decode(
                    name, plusAsSpace: true, into: UnsafeMutableBufferPointer(rebasing: out[nameStart...]), noticingNUL: &decodedNUL)
                let valueCount =
                    value.map {
                        Percent.decode(
                            $0, plusAsSpace: true, into: UnsafeMutableBufferPointer(rebasing: out[(nameStart + nameCount)...]),
                            noticingNUL: &decodedNUL)
                    } ?? 0
                var nameASCII = true
                for byte in out[nameStart..<(nameStart + nameCount)] where byte >= 0x80 { nameASCII = false }
                let head = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(out)[at..<nameStart])
                head.storeBytes(of: UInt32(nameCount) | (nameASCII ? 0 : Self.nonASCII), toByteOffset: 0, as: UInt32.self)
                head.storeBytes(of: UInt32(valueCount), toByteOffset: 4, as: UInt32.self)
                at = nameStart + nameCount + valueCount
            }
            count = at
        }
    }

    /// Whether the query has no item.
    public var isEmpty: Bool { storage.isEmpty }

    /// The first value whose name is `name`'s bytes (`nameIsASCII`: whether they all are ASCII), handed to `body` as
    /// its decoded bytes; nil when no item has that name. Names compare as `String`s do: bytes alike, or, where
    /// either is not ASCII, the same text (the Kelvin sign is canonically `K`).
    @inlinable
    public func withValue<R>(
        named name: UnsafeBufferPointer<UInt8>, nameIsASCII: Bool, _ body: (UnsafeBufferPointer<UInt8>) throws -> R
    ) rethrows -> R? {
        try firstItem { itemName, itemNameIsASCII, value -> R? in
            let same =
                itemName.count == name.count && itemName.elementsEqual(name)
                || ((!nameIsASCII || !itemNameIsASCII)
                    && String(decoding: itemName, as: UTF8.self) == String(decoding: name, as: UTF8.self))
            return same ? .some(try body(value)) : nil
        }
    }

    /// Walks the items in order, handing `body` each one's name, whether that name is all ASCII, and its value, until
    /// `body` returns a result.
    @inlinable
    func firstItem<R>(
        _ body: (_ name: UnsafeBufferPointer<UInt8>, _ nameIsASCII: Bool, _ value: UnsafeBufferPointer<UInt8>) throws -> R?
    ) rethrows -> R? {
        try storage.withUnsafeBufferPointer { bytes -> R? in
            let raw = UnsafeRawBufferPointer(bytes)
            var at = 0
            while at < bytes.count {
                let nameWord = raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)
                let nameCount = Int(nameWord & ~Self.nonASCII)
                let valueCount = Int(raw.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self))
                let valueStart = at + Self.head + nameCount
                let name = UnsafeBufferPointer(rebasing: bytes[(at + Self.head)..<valueStart])
                let value = UnsafeBufferPointer(rebasing: bytes[valueStart..<(valueStart + valueCount)])
                if let result = try body(name, nameWord & Self.nonASCII == 0, value) { return result }
                at = valueStart + valueCount
            }
            return nil
        }
    }

    /// `withValue(named:nameIsASCII:_:)` for the name `name`.
    @inlinable
    public func withValue<R>(named name: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        var name = name
        return try name.withUTF8 { bytes in try withValue(named: bytes, nameIsASCII: bytes.allSatisfy { $0 < 0x80 }, body) }
    }

    /// The first value whose name is `name`, as text (invalid UTF-8 repaired); nil when no item has that name.
    public func value(_ name: String) -> String? {
        withValue(named: name) { String(decoding: $0, as: UTF8.self) }
    }

    /// Every item as text, in the order they were sent.
    public var items: [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        _ = firstItem { name, _, value -> Void? in
            items.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
            return nil
        }
        return items
    }
}
