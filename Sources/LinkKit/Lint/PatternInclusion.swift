/// Whether every text an AASA pattern matches, one of some other patterns matches too (docs/aasa-semantics.md §4):
/// the inclusion test the reachability lint finds shadowed rules with (`AASALinter+Reachability`).
///
/// Patterns are read as languages over Unicode scalars, as the matcher reads them (`?` is one scalar; a built-in
/// class one ASCII character). The test walks the product of the included pattern's automaton with the subset
/// automaton of the covering ones, over the scalars the patterns name plus one that stands for every other; a
/// substitution variable is expanded into its values. It is exact: "included" is a proof, "not included" comes with
/// a witness the matcher confirms. Only a walk longer than `limit` states, more than `maximumAlternatives`
/// expansions, or a spent `Budget`, gives up (`unknown`), which the lint reads as "not included".
enum PatternInclusion {
    /// The work a series of tests may do together (one lint run): each state walked costs one unit per symbol
    /// tried and covering state carried. Patterns costly to compare (`/*a*a*a*…`) are each bounded by `limit`, but
    /// a rule list of many of them would pair each with every earlier one; once the budget is spent every
    /// further test answers `unknown`, so a lint stays bounded whatever the rules.
    final class Budget {
        private(set) var units: Int
        init(units: Int) { self.units = units }
        /// Charges `cost`; false once the budget is spent.
        func spend(_ cost: Int) -> Bool {
            units -= cost
            return units >= 0
        }
    }

    enum Answer: Equatable {
        case included
        /// A text the included pattern matches and no covering one does.
        case notIncluded(witness: String)
        case unknown
    }

    /// The most states one test walks.
    static let limit = 20_000
    /// The most linear patterns the substitution values of one pattern expand into.
    static let maximumAlternatives = 256

    /// One element of a pattern without variables, over scalars.
    enum Step: Hashable {
        case scalar(Unicode.Scalar)
        case one
        case star
        case characterClass(Pattern.CharacterClass, anyCase: Bool)
        case never
    }

    /// Whether every text `pattern` matches, one of `covers` matches (nil stands for `*`).
    /// - Parameter isPath: only texts a matcher compares a path with count: `/`, or not ending in `/` (trailing
    ///   slashes are dropped, docs/aasa-semantics.md §4), so `/c/*` is covered by `/c/?*` and `/c` together.
    static func answer(_ pattern: Pattern?, coveredBy covers: [Pattern?], isPath: Bool = false, budget: Budget? = nil) -> Answer {
        if covers.contains(where: { $0 == nil || $0!.matchesEverything }) { return .included }
        // A literal (most rules) is one text: the matcher decides it.
        if let pattern, pattern.elements.count == 1, case .literal(let bytes) = pattern.elements[0] {
            return covers.contains { $0!.matches(bytes) } ? .included : .notIncluded(witness: String(decoding: bytes, as: UTF8.self))
        }
        guard let included = linear(pattern), let covering = linear(covers) else { return .unknown }
        return answer(included, coveredBy: covering, isPath: isPath, budget: budget)
    }

    /// The patterns as linear step lists, their substitution values expanded; nil when there are too many.
    static func linear(_ patterns: [Pattern?]) -> [[Step]]? {
        var all: [[Step]] = []
        for pattern in patterns {
            guard let expanded = linear(pattern) else { return nil }
            all += expanded
            if all.count > maximumAlternatives { return nil }
        }
        return all
    }

    private static func linear(_ pattern: Pattern?) -> [[Step]]? {
        guard let pattern else { return [[.star]] }
        return linear(pattern.elements)
    }

    private static func linear(_ elements: [Pattern.Element]) -> [[Step]]? {
        var prefixes: [[Step]] = [[]]
        for element in elements {
            var tails: [[Step]]
            switch element {
            case .literal(let bytes): tails = [String(decoding: bytes, as: UTF8.self).unicodeScalars.map(Step.scalar)]
            case .one: tails = [[.one]]
            case .star: tails = [[.star]]
            case .variable(.never): tails = [[.never]]
            case .variable(.characterClass(let characterClass, let anyCase)): tails = [[.characterClass(characterClass, anyCase: anyCase)]]
            case .variable(.alternatives(let values)):
                tails = []
                for value in values {
                    guard let expanded = linear(value) else { return nil }
                    tails += expanded
                }
            }
            guard prefixes.count * tails.count <= maximumAlternatives else { return nil }
            prefixes = prefixes.flatMap { prefix in tails.map { prefix + $0 } }
        }
        return prefixes
    }

    /// The product walk. A state of a set of linear patterns is (pattern, position), packed in one `Int`.
    static func answer(_ included: [[Step]], coveredBy covers: [[Step]], isPath: Bool = false, budget: Budget? = nil) -> Answer {
        let alphabet = Self.alphabet(included + covers)
        let sub = Automaton(patterns: included)
        let cover = Automaton(patterns: covers)
        struct Node: Hashable {
            let state: Int
            let covers: [Int]
            /// For a path: 0 nothing read, 1 only `/`, 2 ends in `/` after more, 3 ends in another character.
            var tail: UInt8 = 0
        }
        let slash = Unicode.Scalar(UInt8(ascii: "/"))
        var nodes: [Node] = []
        var parents: [(node: Int, symbol: Unicode.Scalar)?] = []
        var seen: Set<Node> = []
        let start = cover.closure([])
        for state in sub.closure([]) {
            let node = Node(state: state, covers: start)
            if seen.insert(node).inserted { nodes.append(node); parents.append(nil) }
        }
        var next = 0
        while next < nodes.count {
            let node = nodes[next]
            if sub.accepts(node.state), !isPath || node.tail == 1 || node.tail == 3, !node.covers.contains(where: cover.accepts) {
                var scalars: [Unicode.Scalar] = []
                var index = next
                while let parent = parents[index] {
                    scalars.append(parent.symbol)
                    index = parent.node
                }
                var witness = ""
                witness.unicodeScalars.append(contentsOf: scalars.reversed())
                return .notIncluded(witness: witness)
            }
            if let budget, !budget.spend(alphabet.count * (node.covers.count + 1)) { return .unknown }
            for symbol in alphabet {
                let states = sub.step([node.state], symbol)
                guard !states.isEmpty else { continue }
                let covered = cover.step(node.covers, symbol)
                let tail: UInt8 = !isPath ? 0 : symbol != slash ? 3 : node.tail == 0 ? 1 : 2
                for state in states {
                    let child = Node(state: state, covers: covered, tail: tail)
                    guard seen.insert(child).inserted else { continue }
                    if nodes.count >= limit { return .unknown }
                    nodes.append(child)
                    parents.append((next, symbol))
                }
            }
            next += 1
        }
        return .included
    }

    /// The scalars the patterns name, every ASCII character when a class is used, and one scalar none names,
    /// which stands for all the others (every pattern treats them alike).
    private static func alphabet(_ patterns: [[Step]]) -> [Unicode.Scalar] {
        var named: Set<Unicode.Scalar> = []
        var hasClass = false
        for steps in patterns {
            for step in steps {
                if case .scalar(let scalar) = step { named.insert(scalar) }
                if case .characterClass = step { hasClass = true }
            }
        }
        if hasClass { for value in UInt8(0)..<0x80 { named.insert(Unicode.Scalar(value)) } }
        // Some letter outside ASCII (so outside every class) that no pattern names.
        var other: UInt32 = 0x4E00
        while named.contains(Unicode.Scalar(other)!) { other += 1 }
        return named.sorted { $0.value < $1.value } + [Unicode.Scalar(other)!]
    }

    /// The nondeterministic automaton of a set of linear patterns: a state is a pattern and a position in it.
    private struct Automaton {
        let patterns: [[Step]]

        func pack(_ pattern: Int, _ position: Int) -> Int { pattern << 20 | position }

        func accepts(_ state: Int) -> Bool { state & 0xFFFFF == patterns[state >> 20].count }

        /// `states` with every position a `*` may be skipped from (all starts when `states` is empty).
        func closure(_ states: [Int]) -> [Int] {
            var out: Set<Int> = []
            var pending = states.isEmpty ? patterns.indices.map { pack($0, 0) } : states
            while let state = pending.popLast() {
                guard out.insert(state).inserted else { continue }
                let steps = patterns[state >> 20]
                let position = state & 0xFFFFF
                if position < steps.count, steps[position] == .star { pending.append(state + 1) }
            }
            return out.sorted()
        }

        func step(_ states: [Int], _ symbol: Unicode.Scalar) -> [Int] {
            var moved: [Int] = []
            for state in states {
                let steps = patterns[state >> 20]
                let position = state & 0xFFFFF
                guard position < steps.count else { continue }
                switch steps[position] {
                case .scalar(let scalar): if scalar == symbol { moved.append(state + 1) }
                case .one: moved.append(state + 1)
                case .star: moved.append(state)
                case .characterClass(let characterClass, let anyCase):
                    if symbol.isASCII, characterClass.contains(UInt8(symbol.value), anyCase: anyCase) { moved.append(state + 1) }
                case .never: break
                }
            }
            return moved.isEmpty ? [] : closure(moved)
        }
    }
}
