import Glibc

/// The prefilter of a regex: a run of literal characters every match must contain, lower-cased (ASCII), so that a
/// `User-Agent` lacking it is passed over without running the regex. Most of uap-core's regexes name a product
/// (`Chrome/`, `Android`, `SM-T`); the few without any literal run always run.
///
/// Read conservatively from the pattern: only characters outside optional parts count (a quantifier whose
/// minimum is 0, a group with alternatives, a lookaround), and a run ends at every group, class, escape class or
/// repeated character, so the run found is always in every match. Lower-casing both sides makes one search serve
/// case-sensitive and case-insensitive regexes alike (it can only let more agents through).
struct RequiredLiteral: Sendable, Equatable {
    /// The lower-cased bytes; empty when the pattern requires no literal run.
    let bytes: [UInt8]

    init(pattern: String) {
        var reader = Reader(pattern: Array(pattern.utf8))
        let body = reader.sequence()
        bytes = body.hasAlternatives ? [] : body.runs.max { $0.count < $1.count } ?? []
    }

    /// Whether `text` (lower-cased ASCII) contains the run.
    func isFound(in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first else { return true }
        guard text.count >= bytes.count else { return false }
        return bytes.withUnsafeBufferPointer { needle in
            var start = 0
            let last = text.count - needle.count
            while start <= last {
                // memchr for the first byte, then compare the rest.
                guard let found = memchr(text.baseAddress! + start, Int32(first), last - start + 1) else { return false }
                let at = text.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if memcmp(text.baseAddress! + at, needle.baseAddress!, needle.count) == 0 { return true }
                start = at + 1
            }
            return false
        }
    }

    /// A recursive reader of the pattern's structure, keeping only what the prefilter needs.
    private struct Reader {
        let pattern: [UInt8]
        var position = 0

        /// What a sequence (the pattern, or a group's body) requires.
        struct Body {
            var runs: [[UInt8]] = []
            var hasAlternatives = false
        }

        private enum Atom {
            case literal(UInt8)
            case group(Body, required: Bool)
            case other
        }

        init(pattern: [UInt8]) { self.pattern = pattern }

        /// Reads up to the `)` closing the current group (consumed) or the end.
        mutating func sequence() -> Body {
            var body = Body()
            var run: [UInt8] = []
            func flush() {
                if !run.isEmpty { body.runs.append(run) }
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
                    body.hasAlternatives = true
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
                    if required, minimum ?? 1 > 0, !inner.hasAlternatives { body.runs += inner.runs }
                case .other:
                    flush()
                }
            }
            flush()
            return body
        }

        private mutating func atom() -> Atom {
            let byte = pattern[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\\"):
                guard position < pattern.count else { return .other }
                let escaped = pattern[position]
                position += 1
                let isLetterOrDigit = (escaped | 0x20) >= UInt8(ascii: "a") && (escaped | 0x20) <= UInt8(ascii: "z")
                    || (escaped >= UInt8(ascii: "0") && escaped <= UInt8(ascii: "9"))
                // `\d`, `\b`, `\x41`, back-references...: not a literal; `\.`, `\/`, `\ `: the character itself.
                return isLetterOrDigit || escaped >= 0x80 ? .other : .literal(Self.lowered(escaped))
            case UInt8(ascii: "["):
                skipClass()
                return .other
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
                        return .other   // `(?i)`: a flag, no group
                    }
                    position += 1
                }
                return .group(sequence(), required: required)
            case UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"):
                return .other
            default:
                return byte >= 0x80 ? .other : .literal(Self.lowered(byte))
            }
        }

        /// Skips a character class after its `[` (a `]` first in it, or escaped, is a member).
        private mutating func skipClass() {
            if position < pattern.count, pattern[position] == UInt8(ascii: "^") { position += 1 }
            if position < pattern.count, pattern[position] == UInt8(ascii: "]") { position += 1 }
            while position < pattern.count {
                let byte = pattern[position]
                position += 1
                if byte == UInt8(ascii: "\\") { position += 1 }
                else if byte == UInt8(ascii: "[") { skipClass() }   // ICU's nested sets
                else if byte == UInt8(ascii: "]") { return }
            }
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
