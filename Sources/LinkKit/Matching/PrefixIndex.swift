/// Finds the rules that could match a path without looking at the others: a byte trie over each rule's literal
/// path prefix (the text before its first wildcard or variable), one trie per `MatchSubject.Form`, plus the rules
/// with no useful prefix, which are always candidates.
///
/// Candidates are returned in ascending rule order, so "first match wins" is preserved exactly: a rule left out
/// has a literal prefix the path does not start with, so it could not have matched.
struct PrefixIndex: Sendable {
    /// A trie node while building.
    private struct Node {
        var edges: [UInt8] = []
        var targets: [Int32] = []
        var rules: [Int32] = []
        /// Rules that are candidates only when the path ends exactly here (the literal parent of `X/*`).
        var exactRules: [Int32] = []
    }

    /// A built trie, frozen into flat arrays with its chains collapsed (a radix trie: a run of nodes with one child
    /// and no rules becomes one edge labelled with its bytes, so a trie of 100 distinct 12-byte prefixes has about
    /// 200 nodes, not 1,000): node `n`'s edges are `edgeStart[n]..<edgeStart[n + 1]`, edge `e` leads to
    /// `edgeTargets[e]` over the bytes `labels[labelStart[e]..<labelStart[e + 1]]` (`edgeBytes[e]` is the first),
    /// node `n`'s rules are `rules[ruleStart[n]..<ruleStart[n + 1]]`, its exact rules likewise.
    private struct Trie: Sendable {
        var edgeStart: [Int32] = []
        var edgeBytes: [UInt8] = []
        var edgeTargets: [Int32] = []
        var labelStart: [Int32] = []
        var labels: [UInt8] = []
        var ruleStart: [Int32] = []
        var rules: [Int32] = []
        var exactStart: [Int32] = []
        var exactRules: [Int32] = []

        init(_ nodes: [Node]) {
            // Nodes are numbered in the order they are frozen; `pending` holds built nodes not frozen yet.
            var pending: [Int] = [0]
            var next = 0
            while next < pending.count {
                let node = nodes[pending[next]]
                next += 1
                edgeStart.append(Int32(edgeBytes.count))
                for (byte, target) in zip(node.edges, node.targets) {
                    labelStart.append(Int32(labels.count))
                    labels.append(byte)
                    var end = Int(target)
                    while nodes[end].edges.count == 1, nodes[end].rules.isEmpty, nodes[end].exactRules.isEmpty {
                        labels.append(nodes[end].edges[0])
                        end = Int(nodes[end].targets[0])
                    }
                    edgeBytes.append(byte)
                    edgeTargets.append(Int32(pending.count))
                    pending.append(end)
                }
                ruleStart.append(Int32(rules.count))
                rules += node.rules
                exactStart.append(Int32(exactRules.count))
                exactRules += node.exactRules
            }
            edgeStart.append(Int32(edgeBytes.count))
            labelStart.append(Int32(labels.count))
            ruleStart.append(Int32(rules.count))
            exactStart.append(Int32(exactRules.count))
        }

        func rules(of node: Int) -> ArraySlice<Int32> { rules[Int(ruleStart[node])..<Int(ruleStart[node + 1])] }
        func exactRules(of node: Int) -> ArraySlice<Int32> { exactRules[Int(exactStart[node])..<Int(exactStart[node + 1])] }

        /// The node reached from `node` over the bytes of `path` from `depth`, and the depth there, if an edge's
        /// whole label is there.
        func child(of node: Int, _ path: [UInt8], at depth: Int) -> (node: Int, depth: Int)? {
            let byte = path[depth]
            var edge = Int(edgeStart[node])
            let end = Int(edgeStart[node + 1])
            while edge < end {
                if edgeBytes[edge] == byte {
                    let label = Int(labelStart[edge])..<Int(labelStart[edge + 1])
                    guard depth + label.count <= path.count else { return nil }
                    var offset = 1
                    while offset < label.count {
                        if labels[label.lowerBound + offset] != path[depth + offset] { return nil }
                        offset += 1
                    }
                    return (Int(edgeTargets[edge]), depth + label.count)
                }
                edge += 1
            }
            return nil
        }
    }

    private var tries = Slots<Trie>()
    private var always: [Int32] = []

    /// Builds the index.
    /// - Parameter rules: `(rule number, form, prefix, exact)` in ascending rule number; `exact` is a whole path the
    ///   rule also matches (the literal parent of a `X/*` pattern), indexed apart so that `/section98/*` is not a
    ///   candidate for `/section9876`.
    init(_ rules: [(number: Int32, form: MatchSubject.Form, prefix: [UInt8], exact: [UInt8]?)]) {
        // Built in plain local arrays (mutated in place), frozen once at the end.
        var built: [[Node]] = Array(repeating: [], count: 4)
        for rule in rules {
            // A prefix of `/` alone (or nothing) does not narrow anything: every path starts so.
            guard rule.prefix.count > 1 else { always.append(rule.number); continue }
            let slot = rule.form.slot
            if built[slot].isEmpty { built[slot].append(Node()) }
            let node = Self.insert(rule.prefix, into: &built[slot])
            built[slot][node].rules.append(rule.number)
            if let exact = rule.exact {
                let exactNode = Self.insert(exact, into: &built[slot])
                built[slot][exactNode].exactRules.append(rule.number)
            }
        }
        for slot in 0..<4 where !built[slot].isEmpty { tries[slot] = Trie(built[slot]) }
    }

    /// The node for `key`, created with its ancestors as needed.
    private static func insert(_ key: [UInt8], into nodes: inout [Node]) -> Int {
        var current = 0
        for byte in key {
            if let edge = nodes[current].edges.firstIndex(of: byte) {
                current = Int(nodes[current].targets[edge])
            } else {
                nodes.append(Node())
                let added = Int32(nodes.count - 1)
                nodes[current].edges.append(byte)
                nodes[current].targets.append(added)
                current = Int(added)
            }
        }
        return current
    }

    /// Calls `body` with each candidate rule number in ascending order until it returns true.
    /// - Returns: the rule number for which `body` returned true, or nil.
    func firstMatch(_ subject: inout MatchSubject, _ body: (Int32, inout MatchSubject) -> Bool) -> Int32? {
        var count = always.count
        var visitedCapacity = 0
        for form in MatchSubject.Form.all where tries[form.slot] != nil {
            visitedCapacity += subject.path(form).count + 1
        }
        if visitedCapacity == 0 {
            for number in always where body(number, &subject) { return number }
            return nil
        }
        // Nodes on the path's walk through each trie; their rules are the indexed candidates.
        return withUnsafeTemporaryAllocation(of: (slot: Int32, node: Int32, exact: Bool).self, capacity: visitedCapacity) { visited in
            var visitedCount = 0
            for form in MatchSubject.Form.all {
                guard let trie = tries[form.slot] else { continue }
                let path = subject.path(form)
                var current = 0
                var depth = 0
                while true {
                    let exactCount = depth == path.count ? trie.exactRules(of: current).count : 0
                    let ruleCount = trie.rules(of: current).count
                    if ruleCount > 0 || exactCount > 0 {
                        visited[visitedCount] = (Int32(form.slot), Int32(current), exactCount > 0)
                        visitedCount += 1
                        count += ruleCount + exactCount
                    }
                    guard depth < path.count, let next = trie.child(of: current, path, at: depth) else { break }
                    (current, depth) = next
                }
            }
            return withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { candidates in
                var filled = 0
                for number in always { candidates[filled] = number; filled += 1 }
                for index in 0..<visitedCount {
                    let (slot, node, exact) = visited[index]
                    let trie = tries[Int(slot)]!
                    for number in trie.rules(of: Int(node)) { candidates[filled] = number; filled += 1 }
                    if exact { for number in trie.exactRules(of: Int(node)) { candidates[filled] = number; filled += 1 } }
                }
                var sorted = UnsafeMutableBufferPointer(rebasing: candidates[0..<filled])
                sorted.sort()
                for number in sorted where body(number, &subject) { return number }
                return nil
            }
        }
    }
}

extension PrefixIndex {
    /// Every candidate rule number for the subject, in order (for tests: the index must stay narrow).
    func candidateNumbers(_ subject: inout MatchSubject) -> [Int32] {
        var numbers: [Int32] = []
        _ = firstMatch(&subject) { number, _ in
            numbers.append(number)
            return false
        }
        return numbers
    }
}
