/// How the router table writes what Android reads (docs/CODEGEN.md, docs/ANDROID.md): the manifest's path
/// attributes and the dynamic rules, as strings every generated language reads with a few lines.
extension AndroidPatternMatcher {
    /// `l` + the literal path, `p` + the prefix, `g` + the simple glob, or `a` + the advanced pattern's tokens
    /// (space-separated, each `minimum,maximum,inverted,low,high,...`: UTF-16 code unit ranges, `maximum` -1 for
    /// no bound, `.` as an inverted empty set), so no interpreter parses `pathAdvancedPattern`.
    var tableText: String {
        switch kind {
        case .literal: return "l" + pattern
        case .prefix: return "p" + pattern
        case .simpleGlob: return "g" + pattern
        case .advancedGlob:
            return "a" + tokens.map { token -> String in
                var numbers = [token.minimum, token.maximum == Int.max ? -1 : token.maximum]
                switch token.match {
                case .any: numbers.append(1)
                case .literal(let unit): numbers += [0, Int(unit), Int(unit)]
                case .set(let ranges, let inverted):
                    numbers.append(inverted ? 1 : 0)
                    for range in ranges { numbers += [Int(range.lowerBound), Int(range.upperBound)] }
                }
                return numbers.map(String.init).joined(separator: ",")
            }.joined(separator: " ")
        }
    }
}

extension AndroidDynamicRule {
    /// The entry's patterns as simple globs (`AndroidDynamicRule.glob`): `P` + the path's, `F` + the fragment's,
    /// and per query item `Q` + its name followed by its value's glob. `exclude` is the rule's.
    var tableTexts: [String] {
        func glob(_ pattern: String) -> String { String(decoding: Self.glob(pattern), as: UTF16.self) }
        var texts: [String] = []
        if let path { texts.append("P" + glob(path)) }
        if let fragment { texts.append("F" + glob(fragment)) }
        for item in query { texts += ["Q" + item.name, glob(item.pattern)] }
        return texts
    }
}
