/// Finds the rules that could match a path without looking at the others: a byte trie over each rule's literal
/// path prefix (the text before its first wildcard or variable), one trie per `MatchSubject.Form`, plus the rules
/// with no useful prefix, which are always candidates.
///
/// Candidates are returned in ascending rule order, so "first match wins" is preserved exactly: a rule left out
/// has a literal prefix the path does not start with, so it could not have matched.
///
/// An immutable class, as the matcher is: a struct of four tries' arrays was copied on every match.
final class PrefixIndex: Sendable {
    /// A trie while building, in one array of plain nodes (no allocation per node): a node's children are a list
    /// through `firstChild` and `nextSibling`, in insertion order; its rules and exact rules (candidates only when
    /// the path ends exactly there: the literal parent of `X/*`) are lists through `Builder.next` into
    /// `Builder.numbers`.
    private struct Node {
        var byte: UInt8
        var childCount: Int32 = 0
        var firstChild: Int32 = -1
        var lastChild: Int32 = -1
        var nextSibling: Int32 = -1
        var rules = (first: Int32(-1), last: Int32(-1))
        var exactRules = (first: Int32(-1), last: Int32(-1))

        var hasRules: Bool { rules.first >= 0 || exactRules.first >= 0 }
    }

    private struct Builder {
        var nodes = [Node(byte: 0)]
        var numbers: [Int32] = []
        var next: [Int32] = []

        /// The node for `key`, created with its ancestors as needed.
        mutating func insert(_ key: [UInt8]) -> Int {
            var current = 0
            for byte in key {
                var child = Int(nodes[current].firstChild)
                while child >= 0, nodes[child].byte != byte { child = Int(nodes[child].nextSibling) }
                if child < 0 {
                    child = nodes.count
                    nodes.append(Node(byte: byte))
                    if nodes[current].lastChild < 0 {
                        nodes[current].firstChild = Int32(child)
                    } else {
                        nodes[Int(nodes[current].lastChild)].nextSibling = Int32(child)
                    }
                    nodes[current].lastChild = Int32(child)
                    nodes[current].childCount += 1
                }
                current = child
            }
            return current
        }

        /// Adds rule `number` to the rules of `node` (`exact`: to its exact rules).
        mutating func add(_ number: Int32, to node: Int, exact: Bool) {
            let entry = Int32(numbers.count)
            numbers.append(number)
            next.append(-1)
            var list = exact ? nodes[node].exactRules : nodes[node].rules
            if list.last < 0 { list.first = entry } else { next[Int(list.last)] = entry }
            list.last = entry
            if exact { nodes[node].exactRules = list } else { nodes[node].rules = list }
        }

        func append(_ list: (first: Int32, last: Int32), to out: inout [Int32]) {
            var entry = Int(list.first)
            while entry >= 0 {
                out.append(numbers[entry])
                entry = Int(next[entry])
            }
        }
    }

    /// A built trie, frozen into flat arrays with its chains collapsed (a radix trie: a run of nodes with one child
    /// and no rules becomes one edge labelled with its bytes, so a trie of 100 distinct 12-byte prefixes has about
    /// 200 nodes, not 1,000): node `n`'s edges are `edgeStart[n]..<edgeStart[n + 1]`, edge `e` leads to
    /// `edgeTargets[e]` over the bytes `labels[labelStart[e]..<labelStart[e + 1]]` (`edgeBytes[e]` is the first),
    /// node `n`'s rules are `rules[ruleStart[n]..<ruleStart[n + 1]]`, its exact rules likewise.
    /// A class (immutable), so that taking one out of its slot for a lookup copies no array.
    private final class Trie: Sendable {
        let edgeStart: [Int32]
        let edgeBytes: [UInt8]
        let edgeTargets: [Int32]
        let labelStart: [Int32]
        let labels: [UInt8]
        let ruleStart: [Int32]
        let rules: [Int32]
        let exactStart: [Int32]
        let exactRules: [Int32]

        init(_ builder: Builder) {
            var edgeStart: [Int32] = [], edgeBytes: [UInt8] = [], edgeTargets: [Int32] = [], labelStart: [Int32] = []
            var labels: [UInt8] = [], ruleStart: [Int32] = [], rules: [Int32] = [], exactStart: [Int32] = [], exactRules: [Int32] = []
            let nodes = builder.nodes
            // Nodes are numbered in the order they are frozen; `pending` holds built nodes not frozen yet.
            var pending: [Int] = [0]
            var next = 0
            while next < pending.count {
                let node = nodes[pending[next]]
                next += 1
                edgeStart.append(Int32(edgeBytes.count))
                var child = Int(node.firstChild)
                while child >= 0 {
                    labelStart.append(Int32(labels.count))
                    labels.append(nodes[child].byte)
                    var end = child
                    while nodes[end].childCount == 1, !nodes[end].hasRules {
                        end = Int(nodes[end].firstChild)
                        labels.append(nodes[end].byte)
                    }
                    edgeBytes.append(nodes[child].byte)
                    edgeTargets.append(Int32(pending.count))
                    pending.append(end)
                    child = Int(nodes[child].nextSibling)
                }
                ruleStart.append(Int32(rules.count))
                builder.append(node.rules, to: &rules)
                exactStart.append(Int32(exactRules.count))
                builder.append(node.exactRules, to: &exactRules)
            }
            edgeStart.append(Int32(edgeBytes.count))
            labelStart.append(Int32(labels.count))
            ruleStart.append(Int32(rules.count))
            exactStart.append(Int32(exactRules.count))
            (self.edgeStart, self.edgeBytes, self.edgeTargets, self.labelStart, self.labels) =
                (edgeStart.compacted(), edgeBytes.compacted(), edgeTargets.compacted(), labelStart.compacted(), labels.compacted())
            (self.ruleStart, self.rules, self.exactStart, self.exactRules) =
                (ruleStart.compacted(), rules.compacted(), exactStart.compacted(), exactRules.compacted())
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

    private let tries: Slots<Trie>
    private let always: [Int32]

    /// Builds the index.
    /// - Parameter rules: `(rule number, form, prefix, exact)` in ascending rule number; `exact` is a whole path the
    ///   rule also matches (the literal parent of a `X/*` pattern), indexed apart so that `/section98/*` is not a
    ///   candidate for `/section9876`.
    init(_ rules: [(number: Int32, form: MatchSubject.Form, prefix: [UInt8], exact: [UInt8]?)]) {
        // Built in plain local arrays (mutated in place), frozen once at the end.
        var built: [Builder?] = Array(repeating: nil, count: 4)
        var tries = Slots<Trie>()
        var always: [Int32] = []
        for rule in rules {
            // A prefix of `/` alone (or nothing) does not narrow anything: every path starts so.
            guard rule.prefix.count > 1 else { always.append(rule.number); continue }
            let slot = rule.form.slot
            if built[slot] == nil { built[slot] = Builder() }
            let node = built[slot]!.insert(rule.prefix)
            built[slot]!.add(rule.number, to: node, exact: false)
            if let exact = rule.exact {
                let exactNode = built[slot]!.insert(exact)
                built[slot]!.add(rule.number, to: exactNode, exact: true)
            }
        }
        for slot in 0..<4 { if let builder = built[slot] { tries[slot] = Trie(builder) } }
        self.tries = tries
        self.always = always
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
