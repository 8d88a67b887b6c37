import ByteText

/// Ordered header fields with case-insensitive name lookup (RFC 9110 §5.1).
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    private var pairs: [(name: String, value: String)]

    /// Creates headers from `(name, value)` pairs, order kept.
    public init(_ pairs: [(String, String)] = []) {
        self.init(fields: pairs)
    }

    /// Takes labelled pairs as they are (the server's request headers: no copy).
    init(fields: [(name: String, value: String)]) {
        self.pairs = fields
    }

    /// Room for the fields the server adds to every response (`X-Request-ID`, sometimes `Connection`), so
    /// adding them does not reallocate.
    private init(literal elements: [(String, String)]) {
        var pairs: [(name: String, value: String)] = []
        pairs.reserveCapacity(elements.count + 2)
        for (name, value) in elements { pairs.append((name: name, value: value)) }
        self.pairs = pairs
    }

    /// `["Content-Type": "application/json"]`: pairs in literal order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(literal: elements)
    }

    /// The first value of `name`, compared case-insensitively; `nil` when absent.
    public subscript(name: String) -> String? {
        pairs.first(where: { Self.equal($0.name, name) })?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        pairs.filter { Self.equal($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool {
        pairs.contains(where: { Self.equal($0.name, name) })
    }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(_ name: String, _ value: String) {
        pairs.append((name: name, value: value))
    }

    /// Replaces every field named `name` with one field (at the position of the first), or appends it.
    public mutating func replaceOrAdd(_ name: String, _ value: String) {
        if let index = pairs.firstIndex(where: { Self.equal($0.name, name) }) {
            pairs[index] = (name: name, value: value)
            var next = index + 1
            while next < pairs.count {
                if Self.equal(pairs[next].name, name) { pairs.remove(at: next) } else { next += 1 }
            }
        } else {
            add(name, value)
        }
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        pairs.removeAll(where: { Self.equal($0.name, name) })
    }

    /// Number of fields.
    public var count: Int { pairs.count }

    /// Iterates `(name, value)` pairs in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        pairs.makeIterator()
    }

    /// One `Name: value` line per field, for debugging.
    public var description: String {
        pairs.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// `X-Content-Type-Options: nosniff`: every answer carries it (added where MHD responses and the bytes the
    /// server writes itself are made, unless the handler set it), so no browser reads a body as another type.
    static let noSniff = (name: "X-Content-Type-Options", value: "nosniff")

    /// ASCII case-insensitive comparison without allocating (header names are ASCII tokens), over the strings'
    /// UTF-8 storage (an iterator's per-byte calls cost several times as much: this runs ~10 times a request).
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false } // O(1) for native strings: most names differ here
        let same = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in ASCII.equalIgnoringCase(left, right) }
        }
        if let same, let same { return same }
        return ASCII.equalIgnoringCase(lhs.utf8, rhs.utf8) // not contiguous (bridged)
    }
}
