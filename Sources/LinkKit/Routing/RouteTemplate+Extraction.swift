import ByteText

extension RouteTemplate {
    /// Extracts the captures of `text` (a URL path, or one query-item value), or nil when the text does not
    /// have the template's shape.
    ///
    /// `text` is compared the way the AASA matcher compares it (docs/aasa-semantics.md §4, §6): with
    /// `percentEncoded` true the literals are compared with the encoded text and the captured values are
    /// decoded afterwards; with `percentEncoded` false the text is decoded first. Trailing `/` runs of a path
    /// are dropped, and a template ending in `/{rest*}` also matches its parent path with an empty rest.
    /// - Parameters:
    ///   - text: the raw (percent-encoded) path or value.
    ///   - isPath: apply the path-only rules (trailing slashes, optional leading slash).
    ///   - caseSensitive: compare literals with case (ASCII case folding otherwise).
    ///   - percentEncoded: see above.
    /// - Returns: capture name → decoded value.
    public func captures(in text: String, isPath: Bool = true, caseSensitive: Bool = true, percentEncoded: Bool = true) -> [String: String]?
    {
        var found: [String: String] = [:]
        return captures(in: text, isPath: isPath, caseSensitive: caseSensitive, percentEncoded: percentEncoded, into: &found) ? found : nil
    }

    /// As `captures(in:isPath:caseSensitive:percentEncoded:)`, adding the captures to `found` (a name already
    /// there keeps its value: a rule's path captures come before its query's). Returns false, and leaves
    /// `found` as it was, when the text does not have the template's shape: captures are only written on the
    /// way back from a complete match.
    func captures(in text: String, isPath: Bool, caseSensitive: Bool, percentEncoded: Bool, into found: inout [String: String]) -> Bool {
        var subject = Array(percentEncoded ? text.utf8 : PercentDecoding.decode(text).utf8)
        var pattern = elements
        if isPath {
            while subject.count > 1, subject.last == UInt8(ascii: "/") { subject.removeLast() }
            if subject.first != UInt8(ascii: "/") { subject.insert(UInt8(ascii: "/"), at: 0) }
            if case .literal(let first)? = pattern.first, !first.hasPrefix("/") {
                pattern[0] = .literal("/" + first)
            } else if case .capture? = pattern.first {
                pattern.insert(.literal("/"), at: 0)
            }
        }
        let options = MatchOptions(caseSensitive: caseSensitive, isPath: isPath, percentEncoded: percentEncoded, optional: optionalCaptures)
        return Self.match(pattern[...], subject[...], options, into: &found)
    }

    private struct MatchOptions {
        let caseSensitive: Bool
        let isPath: Bool
        let percentEncoded: Bool
        /// The optional `{name}` captures, which may take no character.
        let optional: Set<String>
    }

    private static func match(
        _ pattern: ArraySlice<Element>, _ subject: ArraySlice<UInt8>, _ options: MatchOptions,
        into found: inout [String: String]
    ) -> Bool {
        guard let element = pattern.first else { return subject.isEmpty }
        let rest = pattern.dropFirst()
        switch element {
        case .literal(let literal):
            let bytes = literal.utf8
            if subject.count >= bytes.count, equal(subject.prefix(bytes.count), bytes, caseSensitive: options.caseSensitive) {
                return match(rest, subject.dropFirst(bytes.count), options, into: &found)
            }
            // `/docs/{rest*}` also matches `/docs` (AASA: a pattern ending in `/*` matches the parent path), and so
            // does `/docs/{id}` when `{id}` is optional (its pattern is `/docs/*` too).
            if options.isPath, bytes.last == UInt8(ascii: "/"), case .capture(let name, let isRest)? = rest.first,
                isRest || (rest.count == 1 && options.optional.contains(name)),
                subject.count == bytes.count - 1, equal(subject, bytes.dropLast(), caseSensitive: options.caseSensitive)
            {
                capture(name, subject[subject.endIndex...], options, into: &found)
                return true
            }
            return false
        case .capture(let name, let isRest):
            if isRest {
                capture(name, subject, options, into: &found)
                return true
            }
            // One or more characters up to the next `/` (zero or more for an optional capture); try the longest
            // first, then backtrack.
            let limit = subject.firstIndex(of: UInt8(ascii: "/")) ?? subject.endIndex
            let shortest = options.optional.contains(name) ? subject.startIndex : subject.startIndex + 1
            var end = limit
            while end >= shortest {
                if match(rest, subject[end...], options, into: &found) {
                    capture(name, subject[..<end], options, into: &found)
                    return true
                }
                end -= 1
            }
            return false
        }
    }

    /// Records a captured value, decoded when the compared text was still percent-encoded.
    private static func capture(_ name: String, _ bytes: ArraySlice<UInt8>, _ options: MatchOptions, into found: inout [String: String]) {
        guard found[name] == nil else { return }
        let value = String(decoding: bytes, as: UTF8.self)
        found[name] = options.percentEncoded ? PercentDecoding.decode(value) : value
    }

    private static func equal(_ a: ArraySlice<UInt8>, _ b: some Collection<UInt8>, caseSensitive: Bool) -> Bool {
        caseSensitive ? a.elementsEqual(b) : ASCII.equalIgnoringCase(a, b)
    }
}
