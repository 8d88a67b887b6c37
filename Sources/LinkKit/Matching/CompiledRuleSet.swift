/// Compiled rules held together for matching: a fixed-size record per rule and every pattern's code in one buffer
/// (a `CompiledRule` holds an array per pattern: one allocation per rule at least, which was half of a compiled
/// domain's rules). Patterns with variables, rare, keep their `Pattern`.
///
/// A pattern reference is the offset in `code` of its length (LEB128) followed by its code, or, with the high bit
/// set, an index in `variablePatterns`; `none` is no pattern. Query-item names are stored in `code` the same way.
struct CompiledRuleSet: Sendable {
    struct Record: Sendable {
        /// Bits 0-1: the form's slot; 2: exclude; 3: never; 4-5: the query (0 any, 1 a string pattern, 2 items).
        let flags: UInt8
        let path: UInt32
        let parentPath: UInt32
        let fragment: UInt32
        /// The string pattern, or the first item in `items`.
        let query: UInt32
        let itemCount: UInt32
    }

    static let none = UInt32.max
    static let variableBit: UInt32 = 0x8000_0000

    let records: [Record]
    let code: [UInt8]
    let variablePatterns: [Pattern]
    /// Query items: the name's and the pattern's references.
    let items: [(name: UInt32, pattern: UInt32)]

    init(_ rules: [CompiledRule]) {
        var records: [Record] = []
        records.reserveCapacity(rules.count)
        var code: [UInt8] = []
        var variablePatterns: [Pattern] = []
        var items: [(name: UInt32, pattern: UInt32)] = []
        func blob(_ bytes: [UInt8]) -> UInt32 {
            let offset = UInt32(code.count)
            LEB128.append(bytes.count, to: &code)
            code += bytes
            return offset
        }
        func reference(_ pattern: Pattern?) -> UInt32 {
            guard let pattern else { return Self.none }
            guard !pattern.hasVariables else {
                variablePatterns.append(pattern)
                return Self.variableBit | UInt32(variablePatterns.count - 1)
            }
            return blob(pattern.code)
        }
        for rule in rules {
            var flags = UInt8(rule.form.slot) | (rule.exclude ? 4 : 0) | (rule.never ? 8 : 0)
            var query = Self.none
            var itemCount: UInt32 = 0
            switch rule.query {
            case .any:
                break
            case .string(let pattern):
                flags |= 1 << 4
                query = reference(pattern)
            case .items(let requirements):
                flags |= 2 << 4
                query = UInt32(items.count)
                itemCount = UInt32(requirements.count)
                for requirement in requirements { items.append((blob(requirement.name), reference(requirement.pattern))) }
            }
            records.append(
                Record(
                    flags: flags, path: reference(rule.path), parentPath: reference(rule.parentPath), fragment: reference(rule.fragment),
                    query: query, itemCount: itemCount
                ))
        }
        self.records = records
        self.code = code.compacted()
        self.variablePatterns = variablePatterns
        self.items = items.compacted()
    }

    var count: Int { records.count }

    func form(_ rule: Int) -> MatchSubject.Form { MatchSubject.Form.all[Int(records[rule].flags & 3)] }
    func exclude(_ rule: Int) -> Bool { records[rule].flags & 4 != 0 }

    /// Whether rule `rule` matches the URL (docs/aasa-semantics.md §4-§6).
    func matches(_ rule: Int, _ subject: inout MatchSubject) -> Bool {
        let record = records[rule]
        if record.flags & 8 != 0 { return false }
        let form = MatchSubject.Form.all[Int(record.flags & 3)]
        if record.path != Self.none {
            let path = subject.path(form)
            if !matches(record.path, path), record.parentPath == Self.none || !matches(record.parentPath, path) { return false }
        }
        switch record.flags >> 4 {
        case 1:
            if !matches(record.query, subject.query(form)) { return false }
        case 2:
            let queryItems = subject.queryItems(form)
            for requirement in items[Int(record.query)..<Int(record.query + record.itemCount)] {
                var seen = false
                for item in 0..<queryItems.count where isBlob(requirement.name, queryItems.name(item)) {
                    seen = true
                    // Every repeated item must match (W19).
                    if !matches(requirement.pattern, queryItems.value(item)) { return false }
                }
                // An absent item reads as the empty string (W19).
                if !seen, !matches(requirement.pattern, []) { return false }
            }
        default:
            break
        }
        if record.fragment != Self.none, !matches(record.fragment, subject.fragment(form)) { return false }
        return true
    }

    private func matches(_ pattern: UInt32, _ input: [UInt8]) -> Bool {
        matches(pattern, input[...])
    }

    private func matches(_ pattern: UInt32, _ input: ArraySlice<UInt8>) -> Bool {
        input.withUnsafeBufferPointer { input in
            if pattern & Self.variableBit != 0 { return variablePatterns[Int(pattern & ~Self.variableBit)].matches(input) }
            return code.withUnsafeBufferPointer { code in
                Pattern.glob(UnsafeBufferPointer(rebasing: code[Self.blobRange(code, pattern)]), input)
            }
        }
    }

    private func isBlob(_ blob: UInt32, _ bytes: ArraySlice<UInt8>) -> Bool {
        code.withUnsafeBufferPointer { code in code[Self.blobRange(code, blob)].elementsEqual(bytes) }
    }

    /// The bytes of the blob at `offset`.
    static func blobRange(_ code: UnsafeBufferPointer<UInt8>, _ offset: UInt32) -> Range<Int> {
        LEB128.prefixedRange(code, at: Int(offset))
    }
}
