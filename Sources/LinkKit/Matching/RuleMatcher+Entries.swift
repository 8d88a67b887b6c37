extension RuleMatcher {
    /// Every entry of every detail, in file order (entry numbers compare as `(detail, component)` positions do):
    /// each detail's first entry number, and each entry's rule, which takes no room at all when entry `i` is rule
    /// `i` (a file's own rules; a domain whose rules all name the same apps), the usual case.
    struct Entries: Sendable, Equatable {
        /// The number of each detail's first entry (a detail without entries starts where the next one does).
        private let detailStarts: [Int32]
        /// The rule of each entry; empty when entry `i` is rule `i`.
        private let rules: [Int32]
        let count: Int

        /// - Parameter details: per detail, the rules of its entries in order.
        init(_ details: [[Int32]]) {
            var starts: [Int32] = []
            var rules: [Int32] = []
            var identity = true
            for detail in details {
                starts.append(Int32(rules.count))
                for rule in detail {
                    if rule != Int32(rules.count) { identity = false }
                    rules.append(rule)
                }
            }
            detailStarts = starts.compacted()
            count = rules.count
            self.rules = identity ? [] : rules.compacted()
        }

        /// The rule of entry `entry`.
        func rule(_ entry: Int32) -> Int32 { rules.isEmpty ? entry : rules[Int(entry)] }

        /// Entry `entry`: its rule and where it is in the file.
        subscript(entry: Int32) -> Entry {
            // The last detail starting at or before the entry.
            var low = 0
            var high = detailStarts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if detailStarts[middle] <= entry { low = middle } else { high = middle - 1 }
            }
            return Entry(rule: rule(entry), detail: Int32(low), component: entry - detailStarts[low])
        }

        /// Every entry, in order.
        var all: [Entry] { (0..<Int32(count)).map { self[$0] } }
    }
}
