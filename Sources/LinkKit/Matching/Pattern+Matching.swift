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
    ///
    /// Two exact shortcuts bound what it scans: a literal tail after the last `*` can only match the input's end,
    /// so it is compared there once and the rest matched against what precedes it; and a `*` that ends the
    /// pattern matches the rest of the input at once. Between two `*`s, the search for the next literal skips to
    /// the bytes its first byte can start at. What is left costs the input's length times the length of the
    /// segments between two `*`s (`scanWeight`), which rule sets are bounded by where they are saved.
    /// Restated over the runtime's own elements by the generated Swift router (`Codegen/Runtime/SwiftRouterRuntime.swift`,
    /// `LinkRouter.Pattern.glob`), which ships inside apps and cannot depend on linkd; the router fixtures hold the two alike.
    static func glob(_ code: UnsafeBufferPointer<UInt8>, _ input: UnsafeBufferPointer<UInt8>) -> Bool {
        var end = code.count
        var inputEnd = input.count
        if let tail = literalTail(code) {
            // The tail is whole UTF-8 characters: its first byte starts one, so the `*` can stop there.
            guard tail.bytes.count <= input.count,
                hasLiteral(UnsafeBufferPointer(rebasing: code[tail.bytes]), input, at: input.count - tail.bytes.count)
            else { return false }
            end = tail.star + 1
            inputEnd = input.count - tail.bytes.count
        }
        let input = UnsafeBufferPointer(rebasing: input[..<inputEnd])
        var p = 0
        var s = 0
        var starP = -1
        var starS = 0
        while p < end || s < input.count {
            if p < end {
                switch code[p] {
                case Code.star:
                    // A last `*` takes whatever is left.
                    if p + 1 == end { return true }
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
            if code[starP + 1] == Code.literal {
                // The literal can only start at its first byte, which starts a character (never a continuation byte).
                let first = code[Code.literalBytes(code, at: starP + 1).lowerBound]
                while starS < input.count, input[starS] != first { starS += 1 }
            }
            s = starS
            p = starP + 1
        }
        return true
    }

    /// The last `*` of `code` and the bytes of the one literal after it, when the pattern ends with a `*` and a literal.
    private static func literalTail(_ code: UnsafeBufferPointer<UInt8>) -> (star: Int, bytes: Range<Int>)? {
        var offset = 0
        var previous = -1
        while offset < code.count {
            if code[offset] == Code.literal {
                let bytes = Code.literalBytes(code, at: offset)
                if previous >= 0, code[previous] == Code.star, bytes.upperBound == code.count { return (previous, bytes) }
                previous = offset
                offset = bytes.upperBound
                continue
            }
            previous = offset
            offset += 1
        }
        return nil
    }

    /// Restated over the runtime's own ops by the generated Swift router (`Codegen/Runtime/SwiftRouterRuntime.swift`,
    /// `Glob.search`), which ships inside apps and cannot depend on linkd; the router fixtures hold the two alike.
    private static func search(
        _ elements: [Element], _ e: Int, _ s: Int, _ input: UnsafeBufferPointer<UInt8>, _ memo: UnsafeMutableBufferPointer<Bool>
    ) -> Bool {
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
            // A last `*` takes whatever is left. Otherwise it stops at the first end after which the rest
            // matches: once this `*` has failed from some `t`, it fails from every later one too, so each
            // `(e, t)` is tried once (linear in the input per `*`, not quadratic).
            if e + 1 == elements.count { return true }
            var t = s
            while t <= input.count {
                if t > s, memo[e * (input.count + 1) + t] { break }
                if isBoundary(input, t), search(elements, e + 1, t, input, memo) { found = true; break }
                t += 1
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
