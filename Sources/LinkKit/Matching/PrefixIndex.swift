/// Finds the rules that could match a path without looking at the others: a byte trie over each rule's literal
/// path prefix (the text before its first wildcard or variable), one trie per `MatchSubject.Form`, plus the rules
/// with no useful prefix, which are always candidates.
///
/// Candidates are returned in ascending rule order, so "first match wins" is preserved exactly: a rule left out
/// has a literal prefix the path does not start with, so it could not have matched.
struct PrefixIndex: Sendable {
    private struct Node: Sendable {
        var edges: [UInt8] = []
        var targets: [Int32] = []
        var rules: [Int32] = []
    }

    private var tries = Slots<[Node]>()
    private var always: [Int32] = []

    /// Builds the index.
    /// - Parameter rules: `(rule number, form, prefix)` in ascending rule number.
    init(_ rules: [(number: Int32, form: MatchSubject.Form, prefix: [UInt8])]) {
        // Built in plain local arrays (mutated in place), stored once at the end.
        var built: [[Node]] = Array(repeating: [], count: 4)
        for rule in rules {
            // A prefix of `/` alone (or nothing) does not narrow anything: every path starts so.
            guard rule.prefix.count > 1 else { always.append(rule.number); continue }
            let slot = rule.form.slot
            if built[slot].isEmpty { built[slot].append(Node()) }
            var current = 0
            for byte in rule.prefix {
                if let edge = built[slot][current].edges.firstIndex(of: byte) {
                    current = Int(built[slot][current].targets[edge])
                } else {
                    built[slot].append(Node())
                    let added = Int32(built[slot].count - 1)
                    built[slot][current].edges.append(byte)
                    built[slot][current].targets.append(added)
                    current = Int(added)
                }
            }
            built[slot][current].rules.append(rule.number)
        }
        for slot in 0..<4 where !built[slot].isEmpty { tries[slot] = built[slot] }
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
        return withUnsafeTemporaryAllocation(of: (Int32, Int32).self, capacity: visitedCapacity) { visited in
            var visitedCount = 0
            for form in MatchSubject.Form.all {
                guard let nodes = tries[form.slot] else { continue }
                let path = subject.path(form)
                var current = 0
                var depth = 0
                while true {
                    if !nodes[current].rules.isEmpty {
                        visited[visitedCount] = (Int32(form.slot), Int32(current))
                        visitedCount += 1
                        count += nodes[current].rules.count
                    }
                    guard depth < path.count, let edge = nodes[current].edges.firstIndex(of: path[depth]) else { break }
                    current = Int(nodes[current].targets[edge])
                    depth += 1
                }
            }
            return withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { candidates in
                var filled = 0
                for number in always { candidates[filled] = number; filled += 1 }
                for index in 0..<visitedCount {
                    let (slot, node) = visited[index]
                    for number in tries[Int(slot)]![Int(node)].rules { candidates[filled] = number; filled += 1 }
                }
                var sorted = UnsafeMutableBufferPointer(rebasing: candidates[0..<filled])
                sorted.sort()
                for number in sorted where body(number, &subject) { return number }
                return nil
            }
        }
    }
}
