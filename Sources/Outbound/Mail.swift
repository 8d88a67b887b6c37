import Foundation

/// One plain-text mail: its sender, its one recipient, its subject and its text, written as an RFC 5322 message
/// (`rendered`) for `SMTPClient`.
public struct Mail: Sendable, Equatable {
    /// The sender's address (`From:` and the envelope's `MAIL FROM`).
    public var from: String
    /// The recipient's address (`To:` and the envelope's one `RCPT TO`).
    public var to: String
    /// One line; line breaks become spaces, so nothing can add a header through it.
    public var subject: String
    /// Plain text, lines ending in `\n` or `\r\n`.
    public var text: String

    public init(from: String, to: String, subject: String, text: String) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
    }

    /// Whether `text` can be an address of the envelope and the headers: `local@domain` within 254 bytes, without
    /// blanks, control characters or the characters that delimit addresses in a header (`<>,;"()[]\`).
    public static func isAddress(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (3...254).contains(bytes.count), let at = bytes.lastIndex(of: UInt8(ascii: "@")), at > 0, at < bytes.count - 1 else {
            return false
        }
        let forbidden = Set("<>,;\"()[]\\ ".utf8)
        return bytes.allSatisfy { $0 > 0x20 && $0 != 0x7F && !forbidden.contains($0) }
            && bytes[(at + 1)...].allSatisfy { $0 != UInt8(ascii: "@") }
    }

    /// The message as sent: headers, then the text. The subject is an RFC 2047 encoded word when it is not ASCII;
    /// the text is sent as it is when it is ASCII, else in base64 (a relay need not speak 8BITMIME). Every line
    /// ends in CRLF; libcurl escapes a line that starts with a dot.
    func rendered(date: Date, messageID: String) -> [UInt8] {
        let oneLine = subject.split(whereSeparator: \.isNewline).joined(separator: " ")
        let text = self.text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            .joined(separator: "\r\n")
        let isASCII = text.utf8.allSatisfy { $0 < 0x80 } && text.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 998 }
        var lines = [
            "Date: \(Self.dateText(date))",
            "From: <\(from)>",
            "To: <\(to)>",
            "Subject: \(Self.headerText(oneLine))",
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: \(isASCII ? "7bit" : "base64")",
            "",
        ]
        if isASCII {
            lines.append(text)
        } else {
            let encoded = Data(text.utf8).base64EncodedString(options: [
                .lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed,
            ])
            lines.append(encoded)
        }
        return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    /// A header's text: as it is when printable ASCII, else one RFC 2047 encoded word per chunk of UTF-8.
    static func headerText(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return text }
        // Each encoded word stays within 75 characters: 45 bytes of text are 60 of base64.
        var words: [String] = []
        var chunk = ""
        for character in text {
            if chunk.utf8.count + character.utf8.count > 45 {
                words.append(chunk)
                chunk = ""
            }
            chunk.append(character)
        }
        if !chunk.isEmpty { words.append(chunk) }
        return words.map { "=?UTF-8?B?\(Data($0.utf8).base64EncodedString())?=" }.joined(separator: "\r\n ")
    }

    /// RFC 5322's date, in UTC: `Mon, 07 Dec 2026 16:05:37 +0000`.
    static func dateText(_ date: Date) -> String {
        let calendar = Calendar(identifier: .gregorian)
        let parts = calendar.dateComponents(in: TimeZone(identifier: "UTC")!, from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(days[(parts.weekday ?? 1) - 1]), \(two(parts.day)) \(months[(parts.month ?? 1) - 1]) \(parts.year ?? 1970) "
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) +0000"
    }
}
