import ByteText

/// One URL prepared for matching: its path, query and fragment in the up to four forms rules ask for
/// (encoded or decoded × as written or lower-cased), each computed at most once per URL and only when asked for.
struct MatchSubject {
    /// Which form of the URL a rule compares against: `percentEncoded` × `caseSensitive`.
    struct Form: Hashable, Sendable {
        let percentEncoded: Bool
        let caseSensitive: Bool
        var slot: Int { (percentEncoded ? 0 : 2) + (caseSensitive ? 0 : 1) }
        static let all = [
            Form(percentEncoded: true, caseSensitive: true), Form(percentEncoded: true, caseSensitive: false),
            Form(percentEncoded: false, caseSensitive: true), Form(percentEncoded: false, caseSensitive: false),
        ]
    }

    private let rawPath: [UInt8]
    private let rawQuery: [UInt8]
    private let rawFragment: [UInt8]
    private var paths = Slots<[UInt8]>()
    private var queries = Slots<[UInt8]>()
    private var fragments = Slots<[UInt8]>()
    private var items = Slots<QueryItems>()

    init(_ url: AASAURL) {
        rawPath = Array(url.path.utf8)
        rawQuery = Array((url.query ?? "").utf8)
        rawFragment = Array((url.fragment ?? "").utf8)
    }

    /// The path in `form`, with trailing `/` runs dropped (so `/` and the empty path are both empty).
    mutating func path(_ form: Form) -> [UInt8] {
        if let cached = paths[form.slot] { return cached }
        var bytes = Self.transform(rawPath, form)
        while bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        paths[form.slot] = bytes
        return bytes
    }

    /// The whole query in `form` (empty when absent).
    mutating func query(_ form: Form) -> [UInt8] {
        if let cached = queries[form.slot] { return cached }
        let bytes = Self.transform(rawQuery, form)
        queries[form.slot] = bytes
        return bytes
    }

    /// The fragment in `form` (empty when absent).
    mutating func fragment(_ form: Form) -> [UInt8] {
        if let cached = fragments[form.slot] { return cached }
        let bytes = Self.transform(rawFragment, form)
        fragments[form.slot] = bytes
        return bytes
    }

    /// The query items in `form`: split on `&` and the first `=` before decoding, as `URLComponents.queryItems`
    /// does; an item without `=` has the empty value, empty segments are skipped. Every form lists the same items
    /// in the same order.
    mutating func queryItems(_ form: Form) -> QueryItems {
        if let cached = items[form.slot] { return cached }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rawQuery.count)
        var spans: [QueryItems.Span] = []
        rawQuery.withUnsafeBufferPointer { query in
            QueryString.forEachItem(query) { name, value in
                let nameStart = bytes.count
                Self.append(name, form, to: &bytes)
                let valueStart = bytes.count
                if let value { Self.append(value, form, to: &bytes) }
                spans.append(QueryItems.Span(name: nameStart..<valueStart, value: valueStart..<bytes.count))
            }
        }
        let result = QueryItems(bytes: bytes, spans: spans)
        items[form.slot] = result
        return result
    }

    /// Appends `bytes` in `form` (the bytes `transform` gives) to `output`.
    private static func append(_ bytes: UnsafeBufferPointer<UInt8>, _ form: Form, to output: inout [UInt8]) {
        if form.percentEncoded && form.caseSensitive {
            output.append(contentsOf: bytes)
        } else {
            output.append(contentsOf: transform(Array(bytes), form))
        }
    }

    static func transform(_ bytes: [UInt8], _ form: Form) -> [UInt8] {
        var result = form.percentEncoded ? bytes : percentDecoded(bytes)
        if !form.caseSensitive { result = lowercased(result) }
        return result
    }

    /// `%XX` escapes decoded to bytes; a `%` not followed by two hex digits stays as written.
    static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "%")) else { return bytes }
        return bytes.withUnsafeBufferPointer(Percent.decoded)
    }

    /// Lower-cased bytes: ASCII folding, or Unicode lower-casing when there is non-ASCII text (decoded input).
    static func lowercased(_ bytes: [UInt8]) -> [UInt8] {
        if bytes.allSatisfy({ $0 < 0x80 }) {
            return bytes.map(ASCII.lowercased)
        }
        return Array(String(decoding: bytes, as: UTF8.self).lowercased().utf8)
    }
}

/// Four optional values indexed by `MatchSubject.Form.slot`, stored inline (no array allocation).
/// Restated by the generated Swift router (`Codegen/Runtime/SwiftRouterRuntime.swift`, `LinkRouter.Slots`), which
/// ships inside apps and cannot depend on linkd.
struct Slots<Value> {
    private var s0: Value?
    private var s1: Value?
    private var s2: Value?
    private var s3: Value?

    subscript(slot: Int) -> Value? {
        get {
            switch slot {
            case 0: s0
            case 1: s1
            case 2: s2
            default: s3
            }
        }
        set {
            switch slot {
            case 0: s0 = newValue
            case 1: s1 = newValue
            case 2: s2 = newValue
            default: s3 = newValue
            }
        }
    }
}

extension Slots: Sendable where Value: Sendable {}
