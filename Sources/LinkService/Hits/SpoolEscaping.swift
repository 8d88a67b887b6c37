import Foundation

/// COPY text-format escaping for spool lines: `\` `\t` `\n` `\r` escaped, nil as `\N`.
enum SpoolEscaping {
    /// Appends `field` escaped (`\N` for nil), leaving NUL bytes out.
    static func append(_ field: String?, to out: inout [UInt8]) {
        guard var field else { return out.append(contentsOf: "\\N".utf8) }
        field.withUTF8 { escape($0, to: &out) }
    }

    /// Appends the UTF-8 `bytes` escaped, leaving NUL bytes out.
    static func append(bytes: [UInt8], to out: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { escape($0, to: &out) }
    }

    private static func escape(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        // The usual field has nothing to escape: appended in one go.
        guard bytes.contains(where: { $0 == 92 || $0 == 9 || $0 == 10 || $0 == 13 || $0 == 0 }) else {
            return out.append(contentsOf: bytes)
        }
        for byte in bytes {
            switch byte {
            case 92: out += [92, 92]
            case 9: out += [92, UInt8(ascii: "t")]
            case 10: out += [92, UInt8(ascii: "n")]
            case 13: out += [92, UInt8(ascii: "r")]
            case 0: continue
            default: out.append(byte)
            }
        }
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
