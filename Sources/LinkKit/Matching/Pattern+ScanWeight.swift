extension Pattern {
    /// What matching this pattern can cost per byte of input: the length (literal bytes, one per `?` or variable)
    /// of what `glob` may have to look for at every position, i.e. the segments between two `*`s, and the one
    /// after the last `*` unless it is a literal (compared with the input's end once); plus one when anything
    /// follows a `*`, which Android's one-pass glob looks for up to the input's end. A pattern without `*`, or
    /// whose only `*` ends it, weighs nothing: its cost does not grow with the input. A pattern with variables
    /// and a `*` (in it or in a variable's values) weighs all its elements.
    var scanWeight: Int {
        let elements = variableElements
        guard elements.isEmpty else { return Self.variableScanWeight(elements) }
        return code.withUnsafeBufferPointer { Self.scanWeight(code: $0) }
    }

    /// `scanWeight` of a pattern's `code` (no variables).
    static func scanWeight(code: UnsafeBufferPointer<UInt8>) -> Int {
        var weight = 0
        var segment = 0 // the weight of the segment since the last `*`
        var segmentIsLiteral = true
        var afterStar = false
        var innerStar = false // something follows a `*`
        var offset = 0
        while offset < code.count {
            switch code[offset] {
            case Code.star:
                if afterStar { weight += segment }
                afterStar = true
                segment = 0
                segmentIsLiteral = true
                offset += 1
                continue
            case Code.literal:
                innerStar = innerStar || afterStar
                let bytes = Code.literalBytes(code, at: offset)
                segment += bytes.count
                offset = bytes.upperBound
                continue
            default:
                innerStar = innerStar || afterStar
                segment += 1
                segmentIsLiteral = false
                offset += 1
            }
        }
        if afterStar, !segmentIsLiteral { weight += segment }
        return weight + (innerStar ? 1 : 0)
    }

    /// The weight of a value with wildcards searched for after a `*`: `search` runs over the rest of the input from
    /// every position, which is quadratic, so one such element weighs as much as a domain's rules may together.
    static let quadraticWeight = 1_024

    /// `search` reaches every position of the input only after a `*`: what follows one costs the input's length
    /// times its length (all of a variable's values for a variable), and a value with wildcards there costs the
    /// square of the input's length (`quadraticWeight`). Before the first `*`, positions are few.
    private static func variableScanWeight(_ elements: [Element]) -> Int {
        var weight = 0
        var afterStar = false
        for (index, element) in elements.enumerated() {
            switch element {
            case .star:
                guard index + 1 < elements.count else { break } // a last `*` takes the rest at once
                if !afterStar { weight += 1 }
                afterStar = true
            case .literal(let bytes):
                if afterStar { weight += bytes.count }
            case .one, .variable(.characterClass), .variable(.never):
                if afterStar { weight += 1 }
            case .variable(.alternatives(let alternatives)):
                let searched = alternatives.contains { $0.count != 1 || !$0.allSatisfy { if case .literal = $0 { true } else { false } } }
                let length = alternatives.reduce(0) { total, alternative in
                    total + alternative.reduce(0) { if case .literal(let bytes) = $1 { $0 + bytes.count } else { $0 + 1 } }
                }
                if searched { weight += afterStar ? quadraticWeight : length } else if afterStar { weight += length }
            }
        }
        return weight
    }
}
