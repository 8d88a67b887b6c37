import Foundation

/// One entry of `regexes.yaml`: a compiled regex, its prefilter, and the replacements of the fields it fills.
struct UserAgentRule: @unchecked Sendable {
    // @unchecked: NSRegularExpression is immutable once made and documented safe to use from several threads.
    let regex: NSRegularExpression
    let literal: RequiredLiteral
    /// The rule's `*_replacement` values by field (`family_replacement`, `os_v1_replacement`, ...), in the order
    /// of the section's fields; nil where it has none.
    let replacements: [String?]

    /// Reads an entry of a section whose fields' replacements are named `replacementKeys`.
    /// - Throws: `UserAgentsError.invalidRegex` for a regex ICU refuses.
    init(_ node: YAMLNode, replacementKeys: [String], path: String, prefilter: Bool = true) throws(UserAgentsError) {
        guard let pattern = node["regex"]?.text else { throw UserAgentsError(.invalidYAML, path: path, detail: "an entry without a regex") }
        // `regex_flag: 'i'` is the one flag uap-core uses.
        let options: NSRegularExpression.Options = node["regex_flag"]?.text == "i" ? [.caseInsensitive] : []
        do {
            regex = try NSRegularExpression(pattern: pattern, options: options)
        } catch {
            throw UserAgentsError(.invalidRegex, path: path, detail: pattern)
        }
        literal = RequiredLiteral(pattern: prefilter ? pattern : "")
        replacements = replacementKeys.map { node[$0]?.text }
    }

    /// The groups of the first match in `agent` (index 0: the whole match; a group that took no part or matched
    /// nothing: nil), or nil when the regex does not match. `lowered` is `agent`'s UTF-8, ASCII lower-cased.
    func match(_ agent: String, length: Int, lowered: UnsafeBufferPointer<UInt8>) -> [Substring?]? {
        guard literal.isFound(in: lowered),
            let found = regex.firstMatch(in: agent, options: [], range: NSRange(location: 0, length: length))
        else { return nil }
        return (0..<found.numberOfRanges).map { index in
            let range = found.range(at: index)
            guard range.location != NSNotFound, range.length > 0, let bounds = Range(range, in: agent) else { return nil }
            return agent[bounds]
        }
    }

    /// Field `field`: its replacement with `$1`...`$9` replaced by those groups (a missing one by nothing), else
    /// group `group`; trimmed, nil when empty (uap-core's reference implementations do the same).
    func value(_ field: Int, group: Int?, of groups: [Substring?]) -> String? {
        if let replacement = replacements[field] {
            return Self.substitute(replacement, groups)
        }
        guard let group, group < groups.count, let text = groups[group] else { return nil }
        return String(text)
    }

    private static func substitute(_ replacement: String, _ groups: [Substring?]) -> String? {
        var result = ""
        var characters = replacement.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = characters.next()
        while let character = pending {
            pending = characters.next()
            if character == "$", let digit = pending, let index = Int(String(digit)), index > 0 {
                if index < groups.count, let group = groups[index] { result += group }
                pending = characters.next()
            } else {
                result.unicodeScalars.append(character)
            }
        }
        let trimmed = result.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }
}
