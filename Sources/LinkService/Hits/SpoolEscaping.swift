import Foundation

/// COPY text-format escaping for spool lines: `\` `\t` `\n` `\r` escaped, nil as `\N`.
enum SpoolEscaping {
    static func escape(_ field: String?) -> String {
        guard let field else { return "\\N" }
        guard field.utf8.contains(where: { $0 == 92 || $0 == 9 || $0 == 10 || $0 == 13 }) else { return field }
        var out = ""
        for character in field.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    static func unescape(_ field: Substring) -> String? {
        if field == "\\N" { return nil }
        guard field.utf8.contains(92) else { return String(field) }
        var out = ""
        var escaped = false
        for character in field.unicodeScalars {
            if escaped {
                switch character {
                case "t": out += "\t"
                case "n": out += "\n"
                case "r": out += "\r"
                default: out.unicodeScalars.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
