extension Pattern {
    /// Whether the pattern matches the whole of `input` (docs/aasa-semantics.md §4: never a prefix).
    ///
    /// Without variables this is the classic two-pointer glob with one backtrack point: O(n·m) worst case and
    /// no allocation. With variables it is a recursive search whose failures are memoised in a stack buffer, so
    /// patterns like `$(lang)_$(region)` stay polynomial.
    func matches(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        let elements = variableElements
        if elements.isEmpty { return code.withUnsafeBufferPointer { Self.glob($0, input) } }
        let size = (elements.count + 1) * (input.count + 1)
        return withUnsafeTemporaryAllocation(of: Bool.self, capacity: size) { memo in
            memo.initialize(repeating: false)
            return Self.search(elements, 0, 0, input, memo)
        }
    }

    /// Convenience for tests and cold paths.
    func matches(_ input: [UInt8]) -> Bool { input.withUnsafeBufferPointer { matches($0) } }

    /// The glob over a pattern's `code` (no variables).
    static func glob(_ code: UnsafeBufferPointer<UInt8>, _ input: UnsafeBufferPointer<UInt8>) -> Bool {
        var p = 0
        var s = 0
        var starP = -1
        var starS = 0
        let end = code.count
        while p < end || s < input.count {
            if p < end {
                switch code[p] {
                case Code.star:
                    starP = p
                    starS = s
                    p += 1
                    continue
                case Code.one:
                    if s < input.count {
                        s = nextScalar(input, s)
                        p += 1
                        continue
                    }
                case Code.literal:
                    let bytes = Code.literalBytes(code, at: p)
                    if hasLiteral(UnsafeBufferPointer(rebasing: code[bytes]), input, at: s) {
                        s += bytes.count
                        p = bytes.upperBound
                        continue
                    }
                default:
                    return false
                }
            }
            guard starP >= 0, starS < input.count else { return false }
            starS = nextScalar(input, starS)
            s = starS
            p = starP + 1
        }
        return true
    }

    private static func search(_ elements: [Element], _ e: Int, _ s: Int, _ input: UnsafeBufferPointer<UInt8>, _ memo: UnsafeMutableBufferPointer<Bool>) -> Bool {
        if e == elements.count { return s == input.count }
        let key = e * (input.count + 1) + s
        if memo[key] { return false }
        var found = false
        switch elements[e] {
        case .literal(let bytes):
            found = hasLiteral(bytes, input, at: s) && search(elements, e + 1, s + bytes.count, input, memo)
        case .one:
            found = s < input.count && search(elements, e + 1, nextScalar(input, s), input, memo)
        case .star:
            var t = input.count
            while t >= s {
                if isBoundary(input, t), search(elements, e + 1, t, input, memo) { found = true; break }
                t -= 1
            }
        case .variable(.never):
            found = false
        case .variable(.characterClass(let characterClass, let anyCase)):
            found = s < input.count && characterClass.contains(input[s], anyCase: anyCase) && search(elements, e + 1, s + 1, input, memo)
        case .variable(.alternatives(let alternatives)):
            for alternative in alternatives {
                if alternative.count == 1, case .literal(let bytes) = alternative[0] {
                    if hasLiteral(bytes, input, at: s), search(elements, e + 1, s + bytes.count, input, memo) { found = true; break }
                    continue
                }
                // A value with wildcards: every end at which it matches from `s`, found in one pass (O(n·m)).
                if forEachEnd(of: alternative, in: input, from: s, { search(elements, e + 1, $0, input, memo) }) {
                    found = true
                    break
                }
            }
        case .variable:
            found = false
        }
        if !found { memo[key] = true }
        return found
    }

    /// Calls `body` with each index `t` (largest first) such that `elements` (no variables) match `input[s..<t]`
    /// exactly, until it returns true. Tracks the set of reachable positions element by element.
    static func forEachEnd(
        of elements: [Element], in input: UnsafeBufferPointer<UInt8>, from s: Int, _ body: (Int) -> Bool
    ) -> Bool {
        let n = input.count
        return withUnsafeTemporaryAllocation(of: Bool.self, capacity: 2 * (n + 1)) { buffer in
            var current = UnsafeMutableBufferPointer(rebasing: buffer[0...n])
            var next = UnsafeMutableBufferPointer(rebasing: buffer[(n + 1)...])
            current.initialize(repeating: false)
            current[s] = true
            for element in elements {
                next.initialize(repeating: false)
                var any = false
                switch element {
                case .literal(let bytes):
                    for p in s...n where current[p] && hasLiteral(bytes, input, at: p) { next[p + bytes.count] = true; any = true }
                case .one:
                    for p in s..<n where current[p] { next[nextScalar(input, p)] = true; any = true }
                case .star:
                    var reached = false
                    for p in s...n {
                        if current[p] { reached = true }
                        if reached, isBoundary(input, p) { next[p] = true; any = true }
                    }
                case .variable:
                    break
                }
                if !any { return false }
                swap(&current, &next)
            }
            var t = n
            while t >= s {
                if current[t], body(t) { return true }
                t -= 1
            }
            return false
        }
    }

    static func hasLiteral(_ bytes: [UInt8], _ input: UnsafeBufferPointer<UInt8>, at s: Int) -> Bool {
        bytes.withUnsafeBufferPointer { hasLiteral($0, input, at: s) }
    }

    static func hasLiteral(_ bytes: UnsafeBufferPointer<UInt8>, _ input: UnsafeBufferPointer<UInt8>, at s: Int) -> Bool {
        guard s + bytes.count <= input.count else { return false }
        var i = 0
        while i < bytes.count {
            if input[s + i] != bytes[i] { return false }
            i += 1
        }
        return true
    }

    /// The index after the UTF-8 scalar starting at `s` (`?` is one character, not one byte, in decoded input).
    static func nextScalar(_ input: UnsafeBufferPointer<UInt8>, _ s: Int) -> Int {
        var next = s + 1
        while next < input.count, input[next] & 0xC0 == 0x80 { next += 1 }
        return next
    }

    static func isBoundary(_ input: UnsafeBufferPointer<UInt8>, _ t: Int) -> Bool {
        t >= input.count || input[t] & 0xC0 != 0x80
    }
}
