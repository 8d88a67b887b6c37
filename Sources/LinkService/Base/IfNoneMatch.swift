/// An `If-None-Match` field value (RFC 9110 §13.1.2): `*`, or a list of entity tags. For `GET` and `HEAD` it is
/// evaluated with the weak comparison (§8.8.3.2), where only the opaque tags count, so `W/"x"` names `"x"`.
/// The one parser of the header: every conditional `GET` asks `matches` whether the client's copy is current.
struct IfNoneMatch: Equatable, Sendable {
    /// `*`: any current representation matches.
    let any: Bool
    /// The listed tags' opaque parts, quotes included, without `W/`.
    let opaqueTags: [String]

    /// Parses a field value; nil when it is malformed (a malformed condition matches nothing, so the full
    /// response is sent). Empty list elements and blanks around commas are allowed (RFC 9110 §5.6.1).
    init?(_ value: String) {
        let bytes = Array(value.utf8)
        var index = 0
        func skipBlanks() { while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 } }
        skipBlanks()
        if index < bytes.count, bytes[index] == UInt8(ascii: "*") {
            index += 1
            skipBlanks()
            guard index == bytes.count else { return nil } // `*` stands alone
            any = true
            opaqueTags = []
            return
        }
        var tags: [String] = []
        while true {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == UInt8(ascii: ",") { index += 1 }
            if index == bytes.count { break }
            if bytes[index] == UInt8(ascii: "W"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") { index += 2 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index
            index += 1
            // etagc = %x21 / %x23-7E / obs-text
            while index < bytes.count, bytes[index] == 0x21 || (bytes[index] >= 0x23 && bytes[index] != 0x7F) { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            tags.append(String(decoding: bytes[start..<index], as: UTF8.self))
            skipBlanks()
            guard index == bytes.count || bytes[index] == UInt8(ascii: ",") else { return nil }
        }
        guard !tags.isEmpty else { return nil }
        any = false
        opaqueTags = tags
    }

    /// Whether the condition names one of `etags` (weak comparison): the client's copy is current, a 304.
    func matches(_ etags: [String]) -> Bool {
        any || etags.contains { etag in opaqueTags.contains(etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag) }
    }

    /// Whether the header `value` (nil: absent) names one of `etags`; a malformed value names none.
    static func matches(_ value: String?, _ etags: String...) -> Bool {
        value.flatMap(IfNoneMatch.init)?.matches(etags) ?? false
    }
}
