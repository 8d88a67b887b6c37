/// A parsed route pattern such as `/v1/domains/{host}/rules` or `/files/{rest*}`; compiled once at build time.
struct RoutePattern: Sendable, Hashable {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
        /// Captures the remaining path, slashes included (last segment only).
        case rest(String)
    }

    let text: String
    let segments: [Segment]

    /// Parses `text`; a malformed pattern is a programming error and traps at startup.
    init(_ text: String) {
        precondition(text.hasPrefix("/"), "route pattern must start with '/': \(text)")
        self.text = text
        let pieces = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var segments: [Segment] = []
        for (index, piece) in pieces.enumerated() {
            if piece.hasPrefix("{") && piece.hasSuffix("}") {
                var name = piece.dropFirst().dropLast()
                if name.hasSuffix("*") {
                    name = name.dropLast()
                    precondition(index == pieces.count - 1, "{\(name)*} must be the last segment: \(text)")
                    precondition(!name.isEmpty, "empty parameter name in \(text)")
                    segments.append(.rest(String(name)))
                } else {
                    precondition(!name.isEmpty, "empty parameter name in \(text)")
                    segments.append(.parameter(String(name)))
                }
            } else {
                precondition(!piece.contains("{") && !piece.contains("}"), "parameters must fill a whole segment: \(text)")
                segments.append(.literal(String(piece)))
            }
        }
        self.segments = segments
    }

    /// Parameter names in capture order (the rest parameter last).
    var parameterNames: [String] {
        segments.compactMap {
            switch $0 {
            case .literal: nil
            case .parameter(let name), .rest(let name): name
            }
        }
    }
}
