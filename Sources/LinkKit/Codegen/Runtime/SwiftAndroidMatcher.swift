// MARK: - Matching for an Android app (Android's PatternMatcher and dynamic rules, docs/ANDROID.md in linkd; only in an
// Android app's file). It restates linkd's own Android matcher on purpose: it ships inside the app, which cannot
// depend on linkd; the router fixtures hold the two to the same answers.

extension LinkRouter {
    /// The deciding entry of one app's rules on a URL, as Android decides it (`Android.first(_:dynamic:)`).
    static func androidMatcher(path: [UInt8], query: [UInt8], fragment: [UInt8]) -> (([Int], Bool) -> (entry: Int, rule: Int)?)? {
        let url = Android(path: path, query: query, fragment: fragment)
        return { list, dynamic in url.first(list, dynamic: dynamic) }
    }

    /// A URL as Android compares it: the decoded path, query items and fragment, as UTF-16 code units.
    struct Android {
        let path: [UInt16]
        let items: [(name: [UInt16], value: [UInt16])]
        let fragment: [UInt16]

        init(path: [UInt8], query: [UInt8], fragment: [UInt8]) {
            func decoded(_ bytes: ArraySlice<UInt8>) -> [UInt16] { Array(String(decoding: Subject.percentDecoded(Array(bytes)), as: UTF8.self).utf16) }
            self.path = decoded(path[...])
            self.fragment = decoded(fragment[...])
            items = query.split(separator: 0x26, omittingEmptySubsequences: true).map { piece in
                let equals = piece.firstIndex(of: 0x3D)
                return (decoded(piece[..<(equals ?? piece.endIndex)]), equals.map { decoded(piece[piece.index(after: $0)...]) } ?? [])
            }
        }

        /// The deciding entry of one app's rules (entry and rule numbers alternately): the first rule whose
        /// manifest attributes match puts the URL in the app's scope; then, with dynamic rules, the first rule
        /// with a matching dynamic entry decides (an exclusion too), else the manifest's rule does.
        func first(_ list: [Int], dynamic: Bool) -> (entry: Int, rule: Int)? {
            var index = 0
            var claimed: (entry: Int, rule: Int)?
            while index < list.count, claimed == nil {
                if table.rules[list[index + 1]].manifest.contains(where: { attribute($0) }) { claimed = (list[index], list[index + 1]) }
                index += 2
            }
            guard claimed != nil, dynamic else { return claimed }
            index = 0
            while index < list.count {
                if table.rules[list[index + 1]].dynamic.contains(where: { entry($0) }) { return (list[index], list[index + 1]) }
                index += 2
            }
            return nil
        }

        /// Whether the path matches a manifest attribute.
        func attribute(_ attribute: ManifestPath) -> Bool {
            switch attribute {
            case .path(let literal): return path == Array(literal.utf16)
            case .pathPrefix(let prefix): return path.starts(with: prefix.utf16)
            case .pathPattern(let glob): return Self.simpleGlob(Array(glob.utf16), path)
            case .pathAdvancedPattern(let tokens): return Self.advanced(tokens, path)
            }
        }

        /// Whether a dynamic entry matches: its path, its fragment, and each named query item, present with one
        /// instance matching.
        func entry(_ entry: Dynamic) -> Bool {
            if let glob = entry.path, !Self.simpleGlob(Array(glob.utf16), path) { return false }
            if let glob = entry.fragment, !Self.simpleGlob(Array(glob.utf16), fragment) { return false }
            for item in entry.query {
                let (name, value) = (Array(item.name.utf16), Array(item.value.utf16))
                if !items.contains(where: { $0.name == name && Self.simpleGlob(value, $0.value) }) { return false }
            }
            return true
        }

        /// `pathPattern`, read once left to right: `x*` takes every following `x`; `.*` takes input up to the
        /// first unit equal to the pattern's next one (never a longer run); `\` escapes.
        /// linkd's `AndroidPatternMatcher.simpleGlob`, line for line: this file ships inside the app, which cannot
        /// depend on linkd; a change there is made here too (the router fixtures hold the two to the same answers).
        static func simpleGlob(_ pattern: [UInt16], _ input: [UInt16]) -> Bool {
            let (dot, star, backslash): (UInt16, UInt16, UInt16) = (0x2E, 0x2A, 0x5C)
            if pattern.isEmpty { return input.isEmpty }
            var p = 0
            var s = 0
            while p < pattern.count, s < input.count {
                var unit = pattern[p]
                p += 1
                let escaped = unit == backslash
                if escaped {
                    unit = p < pattern.count ? pattern[p] : 0
                    p += 1
                }
                let starred = p < pattern.count && pattern[p] == star
                if !starred {
                    if !(unit == dot && !escaped) && input[s] != unit { return false }
                    s += 1
                    continue
                }
                p += 1
                if unit == dot && !escaped {
                    guard p < pattern.count else { return true }
                    var next = pattern[p]
                    if next == backslash, p + 1 < pattern.count {
                        p += 1
                        next = pattern[p]
                    }
                    while s < input.count, input[s] != next { s += 1 }
                    guard s < input.count else { return false }
                    p += 1
                    s += 1
                } else {
                    while s < input.count, input[s] == unit { s += 1 }
                }
            }
            if p >= pattern.count && s >= input.count { return true }
            return p == pattern.count - 2 && pattern[p] == dot && pattern[p + 1] == star
        }

        /// `pathAdvancedPattern` from its tokens: each takes as many units as it accepts, up to its maximum, and
        /// at least its minimum; the input must be used up.
        static func advanced(_ tokens: [[Int]], _ input: [UInt16]) -> Bool {
            var s = 0
            for numbers in tokens {
                guard numbers.count >= 3 else { return false }
                let maximum = numbers[1] < 0 ? Int.max : numbers[1]
                let inverted = numbers[2] == 1
                func accepts(_ unit: UInt16) -> Bool {
                    var member = false
                    var index = 3
                    while index + 1 < numbers.count {
                        if numbers[index] <= Int(unit) && Int(unit) <= numbers[index + 1] { member = true }
                        index += 2
                    }
                    return member != inverted
                }
                var taken = 0
                while taken < maximum, s + taken < input.count, accepts(input[s + taken]) { taken += 1 }
                guard taken >= numbers[0] else { return false }
                s += taken
            }
            return s >= input.count
        }
    }
}
