import ByteText

extension CompiledRuleSet {
    /// What matching rule `rule` can cost per byte of the URL: the `scanWeight` of its patterns.
    func scanWeight(_ rule: Int) -> Int {
        let record = records[rule]
        guard record.flags & 8 == 0 else { return 0 }
        var patterns = [record.path, record.parentPath, record.fragment]
        switch record.flags >> 4 {
        case 1: patterns.append(record.query)
        case 2: patterns += items[Int(record.query)..<Int(record.query + record.itemCount)].map(\.pattern)
        default: break
        }
        return patterns.reduce(0) { weight, pattern in
            guard pattern != Self.none else { return weight }
            if pattern & Self.variableBit != 0 { return weight + variablePatterns[Int(pattern & ~Self.variableBit)].scanWeight }
            return weight
                + code.withUnsafeBufferPointer { code in
                    Pattern.scanWeight(code: UnsafeBufferPointer(rebasing: code[Self.blobRange(code, pattern)]))
                }
        }
    }

    /// The literal bytes every path rule `rule` matches starts with, lower-cased (empty without a path).
    func pathPrefix(_ rule: Int) -> [UInt8] {
        let path = records[rule].path
        guard path != Self.none else { return [] }
        let prefix: [UInt8]
        if path & Self.variableBit != 0 {
            prefix = variablePatterns[Int(path & ~Self.variableBit)].literalPrefix
        } else {
            prefix = code.withUnsafeBufferPointer { code in
                let pattern = UnsafeBufferPointer(rebasing: code[Self.blobRange(code, path)])
                guard pattern.first == Pattern.Code.literal else { return [] }
                return Array(pattern[Pattern.Code.literalBytes(pattern, at: 0)])
            }
        }
        return prefix.map(ASCII.lowercased)
    }

    /// The most one URL can cost to match against these rules, per byte of it, and the rule (in rule order
    /// within the heaviest set) past which that passes `limit`, if it does.
    ///
    /// A URL is only matched against the rules whose literal path prefix starts its path (`PrefixIndex`; Android's
    /// globs stop at the first byte that differs too): those prefixes are prefixes of one another, a chain. So the
    /// cost is the heaviest chain of prefixes, once for the rules that compare the percent-encoded path and once
    /// for those comparing the decoded one (their prefixes start different strings). Prefixes are compared
    /// lower-cased, so that case-sensitive and case-insensitive rules chain as the paths they start do.
    func scanCost(limit: Int) -> (weight: Int, crossing: Int?) {
        let weights = (0..<count).map(scanWeight)
        let chains = [true, false].map { encoded in
            (0..<count).filter { weights[$0] > 0 && form($0).percentEncoded == encoded }
        }
        let heaviest = chains.map { heaviestChain($0, weights: weights, limit: Int.max).weight }
        let total = heaviest.reduce(0, +)
        guard total > limit else { return (total, nil) }
        let group = heaviest[0] >= heaviest[1] ? 0 : 1
        return (total, heaviestChain(chains[group], weights: weights, limit: limit - heaviest[1 - group]).crossing)
    }

    /// The heaviest chain of prefixes among `rules`, and the first rule at which a chain passes `limit`.
    private func heaviestChain(_ rules: [Int], weights: [Int], limit: Int) -> (weight: Int, crossing: Int?) {
        let keyed = rules.map { (rule: $0, prefix: pathPrefix($0)) }.sorted {
            $0.prefix.lexicographicallyPrecedes($1.prefix) || ($0.prefix == $1.prefix && $0.rule < $1.rule)
        }
        var stack: [(prefix: [UInt8], weight: Int)] = []
        var heaviest = 0
        var crossing: Int?
        for (rule, prefix) in keyed {
            while let top = stack.last, !prefix.starts(with: top.prefix) { stack.removeLast() }
            let weight = (stack.last?.weight ?? 0) + weights[rule]
            stack.append((prefix, weight))
            heaviest = max(heaviest, weight)
            if crossing == nil, weight > limit { crossing = rule }
        }
        return (heaviest, crossing)
    }
}
