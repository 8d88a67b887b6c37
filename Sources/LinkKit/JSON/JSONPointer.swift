/// Builds RFC 6901 JSON pointers (`/applinks/details/0/components/3/?/id`).
public enum JSONPointer: Sendable {
    /// `base` extended by one reference token, escaping `~` as `~0` and `/` as `~1` (RFC 6901 §3).
    /// - Parameters:
    ///   - base: a pointer (`""` is the whole document).
    ///   - token: an object key.
    public static func appending(_ base: String, _ token: String) -> String {
        if !token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) { return base + "/" + token }
        var escaped = ""
        for character in token {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.append(character)
            }
        }
        return base + "/" + escaped
    }

    /// `base` extended by an array index.
    /// - Parameters:
    ///   - base: a pointer.
    ///   - index: an array index.
    public static func appending(_ base: String, _ index: Int) -> String {
        base + "/" + String(index)
    }
}
