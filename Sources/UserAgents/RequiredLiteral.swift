import Glibc

/// The prefilter of a regex: sets of literal texts such that every match contains a text of each set, lower-cased
/// (ASCII), so that a `User-Agent` lacking all texts of a set is passed over without running the regex. Most of uap-core's regexes
/// name products (`Chrome/`, `(Windows|Android|WeTab)`, `[Ss]pider`); the few without a literal always run.
///
/// Read conservatively from the pattern: only characters outside optional parts count (a quantifier whose
/// minimum is 0, a lookaround, an alternative that requires nothing), and a run ends at every group, class, escape
/// class or repeated character, so each run found is in every match of its branch. A group of alternatives
/// requires one of its branches' runs. Lower-casing both sides makes one search serve case-sensitive and
/// case-insensitive regexes alike (it can only let more agents through), and reads `[Ss]` as `s`.
struct RequiredLiteral: Sendable, Equatable {
    /// Sets of lower-cased texts: every match contains one text of each set. Empty when the pattern requires
    /// nothing; the most selective sets (longest shortest text) first, so a search fails early.
    let requirements: [[[UInt8]]]

    init(pattern: String) {
        var reader = Reader(pattern: Array(pattern.utf8))
        requirements = Reader.combine(reader.alternation()).sorted { Reader.isMoreSelective($0, than: $1) }
    }

    /// Whether `text` (lower-cased ASCII) holds a text of every set (always, when there are none).
    func isFound(in text: UnsafeBufferPointer<UInt8>) -> Bool {
        requirements.allSatisfy { texts in texts.contains { Self.contains(text, $0) } }
    }

    private static func contains(_ text: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, text.count >= needle.count, let base = text.baseAddress else { return needle.isEmpty }
        return needle.withUnsafeBufferPointer { needle in
            var start = 0
            let last = text.count - needle.count
            while start <= last {
                // memchr for the first byte, then compare the rest.
                guard let found = memchr(base + start, Int32(first), last - start + 1) else { return false }
                let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if memcmp(base + at, needle.baseAddress!, needle.count) == 0 { return true }
                start = at + 1
            }
            return false
        }
    }

    /// A recursive reader of the pattern's structure, keeping only what the prefilter needs.
    private struct Reader {
        /// Texts one of which a match contains.
        typealias Requirement = [[UInt8]]
        /// What one branch of an alternation requires: every requirement holds.
        typealias Branch = [Requirement]

        let pattern: [UInt8]
        var position = 0

        private enum Atom {
            case literal(UInt8)
            case group([Branch], required: Bool)
            case other
        }

        init(pattern: [UInt8]) { self.pattern = pattern }

        /// What a group of `branches` requires: its one branch's requirements, or one requirement holding a
        /// requirement of each branch (none when a branch requires nothing).
        static func combine(_ branches: [Branch]) -> Branch {
            if branches.count == 1 { return branches[0] }
            var union: Requirement = []
            for branch in branches {
                guard let best = best(of: branch) else { return [] }
                for text in best where !union.contains(text) { union.append(text) }
            }
            return [union]
        }

        /// The most selective requirement of a branch.
        static func best(of branch: Branch) -> Requirement? {
            branch.min { isMoreSelective($0, than: $1) }
        }

        /// Whether `a` likely rules out more agents than `b`: a longer shortest text, then fewer texts.
        static func isMoreSelective(_ a: Requirement, than b: Requirement) -> Bool {
            let (shortestA, shortestB) = (a.map(\.count).min() ?? 0, b.map(\.count).min() ?? 0)
            return shortestA != shortestB ? shortestA > shortestB : a.count < b.count
        }

        /// Reads branches separated by `|` up to the `)` closing the current group (consumed) or the end.
        mutating func alternation() -> [Branch] {
            var branches: [Branch] = []
            var branch: Branch = []
            var run: [UInt8] = []
            func flush() {
                if !run.isEmpty { branch.append([run]) }
                run = []
            }
            while position < pattern.count {
                let byte = pattern[position]
                if byte == UInt8(ascii: ")") {
                    position += 1
                    break
                }
                if byte == UInt8(ascii: "|") {
                    position += 1
                    flush()
                    branches.append(branch)
                    branch = []
                    continue
                }
                let atom = self.atom()
                let minimum = quantifierMinimum()
                switch atom {
                case .literal(let character):
                    guard let minimum else {
                        run.append(character)
                        continue
                    }
                    if minimum > 0 { run.append(character) }
                    flush()
                case .group(let inner, let required):
                    flush()
                    if required, minimum ?? 1 > 0 { branch += Self.combine(inner).filter { !$0.isEmpty } }
                case .other:
                    flush()
                }
            }
            flush()
            branches.append(branch)
            return branches
        }

        private mutating func atom() -> Atom {
            let byte = pattern[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\\"):
                guard position < pattern.count else { return .other }
                let escaped = pattern[position]
                position += 1
                let isLetterOrDigit =
                    (escaped | 0x20) >= UInt8(ascii: "a") && (escaped | 0x20) <= UInt8(ascii: "z")
                    || (escaped >= UInt8(ascii: "0") && escaped <= UInt8(ascii: "9"))
                // `\d`, `\b`, `\x41`, back-references...: not a literal; `\.`, `\/`, `\ `: the character itself.
                return isLetterOrDigit || escaped >= 0x80 ? .other : .literal(Self.lowered(escaped))
            case UInt8(ascii: "["):
                return characterClass()
            case UInt8(ascii: "("):
                var required = true
                if position < pattern.count, pattern[position] == UInt8(ascii: "?") {
                    position += 1
                    let kind = position < pattern.count ? pattern[position] : 0
                    if kind == UInt8(ascii: "=") || kind == UInt8(ascii: "!") || kind == UInt8(ascii: "<") {
                        // Lookarounds (and named groups, `(?<name>`, read the same way): nothing they hold is counted.
                        required = false
                    }
                    // Skip the group's flags or kind up to its body (`(?:`, `(?i)`, `(?i:`).
                    while position < pattern.count, pattern[position] != UInt8(ascii: ":"), pattern[position] != UInt8(ascii: ")") {
                        position += 1
                    }
                    if position < pattern.count, pattern[position] == UInt8(ascii: ")") {
                        position += 1
                        return .other // `(?i)`: a flag, no group
                    }
                    position += 1
                }
                return .group(alternation(), required: required)
            case UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"):
                return .other
            default:
                return byte >= 0x80 ? .other : .literal(Self.lowered(byte))
            }
        }

        /// Reads a character class after its `[`: a literal when it is one letter in both cases (`[Ss]`), which
        /// lower-cased is one character; anything else is not (a `]` first in it, or escaped, is a member).
        private mutating func characterClass() -> Atom {
            let start = position
            if position < pattern.count, pattern[position] == UInt8(ascii: "^") { position += 1 }
            if position < pattern.count, pattern[position] == UInt8(ascii: "]") { position += 1 }
            while position < pattern.count {
                let byte = pattern[position]
                position += 1
                if byte == UInt8(ascii: "\\") {
                    position += 1
                } else if byte == UInt8(ascii: "[") {
                    _ = characterClass()
                } // ICU's nested sets
                else if byte == UInt8(ascii: "]") {
                    break
                }
            }
            let members = pattern[start..<max(start, position - 1)]
            if members.count == 2, let first = members.first, let last = members.last, first != last,
                Self.lowered(first) == Self.lowered(last), (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z")
            {
                return .literal(Self.lowered(first))
            }
            return .other
        }

        /// The minimum count of the quantifier after an atom (consumed, with a lazy or possessive mark); nil when
        /// there is none.
        private mutating func quantifierMinimum() -> Int? {
            guard position < pattern.count else { return nil }
            var minimum: Int?
            switch pattern[position] {
            case UInt8(ascii: "?"), UInt8(ascii: "*"): minimum = 0; position += 1
            case UInt8(ascii: "+"): minimum = 1; position += 1
            case UInt8(ascii: "{"):
                var index = position + 1
                var value = 0
                var digits = 0
                while index < pattern.count, pattern[index] >= UInt8(ascii: "0"), pattern[index] <= UInt8(ascii: "9") {
                    value = value * 10 + Int(pattern[index] - UInt8(ascii: "0"))
                    index += 1
                    digits += 1
                }
                guard digits > 0, let close = pattern[index...].firstIndex(of: UInt8(ascii: "}")) else { return nil }
                minimum = value
                position = close + 1
            default: return nil
            }
            if position < pattern.count, pattern[position] == UInt8(ascii: "?") || pattern[position] == UInt8(ascii: "+") { position += 1 }
            return minimum
        }

        private static func lowered(_ byte: UInt8) -> UInt8 {
            byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
        }
    }
}
