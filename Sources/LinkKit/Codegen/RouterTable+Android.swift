/// How the router table writes what Android reads (docs/CODEGEN.md, docs/ANDROID.md): the manifest's path
/// attributes and the dynamic rules, as values every generated language reads with a few lines.
extension AndroidPatternMatcher {
    /// The attribute as a `Manifest` token named as the manifest names it: `.path`, `.pathPrefix`, `.pathPattern`,
    /// or `.pathAdvancedPattern` with its pre-parsed tokens, so no interpreter parses `pathAdvancedPattern`: each
    /// token `[minimum, maximum, inverted, low, high, ...]`, UTF-16 code unit ranges, `maximum` -1 for no bound,
    /// `[.., .., 1]` (an inverted empty set) for `.`.
    var tableValue: CodeValue {
        switch kind {
        case .literal: return .token("Manifest", "path", .string(pattern))
        case .prefix: return .token("Manifest", "pathPrefix", .string(pattern))
        case .simpleGlob: return .token("Manifest", "pathPattern", .string(pattern))
        case .advancedGlob:
            return .token(
                "Manifest", "pathAdvancedPattern",
                .list(
                    tokens.map { token -> CodeValue in
                        var numbers = [token.minimum, token.maximum == Int.max ? -1 : token.maximum]
                        switch token.match {
                        case .any: numbers.append(1)
                        case .literal(let unit): numbers += [0, Int(unit), Int(unit)]
                        case .set(let ranges, let inverted):
                            numbers.append(inverted ? 1 : 0)
                            for range in ranges { numbers += [Int(range.lowerBound), Int(range.upperBound)] }
                        }
                        return .list(numbers.map(CodeValue.int))
                    }))
        }
    }
}

extension AndroidDynamicRule {
    /// `Dynamic(path:, fragment:, query:)`: the entry's patterns as simple globs (`AndroidDynamicRule.glob`), each
    /// query item `DynamicItem(name:, value:)`. `exclude` is the rule's.
    var tableValue: CodeValue {
        func glob(_ pattern: String) -> CodeValue { .string(String(decoding: Self.glob(pattern), as: UTF16.self)) }
        return .record(
            "Dynamic",
            [
                "path": path.map(glob),
                "fragment": fragment.map(glob),
                "query": .listed(query.map { .record("DynamicItem", ["name": .string($0.name), "value": glob($0.pattern)]) }),
            ])
    }
}
