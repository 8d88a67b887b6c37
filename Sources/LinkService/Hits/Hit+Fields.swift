import Foundation
import LinkKit

extension Hit {
    /// The hit as COPY text fields (the spool's line format): time, workspace_id, hostname, path, query,
    /// outcome, app_id, rule_id, destination_type, source, platform, is_bot, referrer_host, visitor_hash.
    /// NUL bytes (which PostgreSQL text cannot hold) are removed, so a hostile URL can never make a batch fail.
    var fields: [String?] {
        [
            TimestampText.utc(micros: micros),
            workspaceID.map(UUIDText.string),
            Self.clean(hostname),
            Self.clean(path),
            query.map(Self.clean),
            outcome.rawValue,
            appID.map(UUIDText.string),
            ruleID.map(UUIDText.string),
            destinationType.map(Self.clean),
            source.rawValue,
            platform.rawValue,
            isBot ? "t" : "f",
            referrerHost.map(Self.clean),
            visitorHash.map(Self.clean),
        ]
    }

    /// Microseconds since 1970, the precision PostgreSQL keeps.
    var micros: Int64 { Int64((time.timeIntervalSince1970 * 1_000_000).rounded()) }

    /// One spool line (without the newline): the microsecond time, then the fields, COPY-escaped and
    /// tab-separated.
    var spoolLine: String {
        var line = String(micros)
        for field in fields.dropFirst() {
            line += "\t"
            line += SpoolEscaping.escape(field)
        }
        return line
    }

    /// Reads a line written by `spoolLine`; nil when it is damaged (e.g. cut by a crash mid-write).
    init?(spoolLine line: Substring) {
        let parts = line.utf8.split(separator: 9, omittingEmptySubsequences: false).map { Substring($0) }
        guard parts.count == 14, let micros = Int64(parts[0]) else { return nil }
        let fields = parts.map(SpoolEscaping.unescape)
        guard let hostname = fields[2], let path = fields[3],
              let outcome = fields[5].flatMap(Outcome.init(rawValue:)),
              let source = fields[9].flatMap(Source.init(rawValue:)),
              let platform = fields[10].flatMap(UserAgent.Platform.init(rawValue:)),
              let bot = fields[11], bot == "t" || bot == "f"
        else { return nil }
        self.init(
            time: Date(timeIntervalSince1970: Double(micros) / 1_000_000), workspaceID: parts[1] == "\\N" ? nil : UUIDText.parse(parts[1]),
            hostname: hostname, path: path, query: fields[4], outcome: outcome,
            appID: parts[6] == "\\N" ? nil : UUIDText.parse(parts[6]), ruleID: parts[7] == "\\N" ? nil : UUIDText.parse(parts[7]),
            destinationType: fields[8], source: source, platform: platform, isBot: bot == "t",
            referrerHost: fields[12], visitorHash: fields[13]
        )
    }

    static func clean(_ text: String) -> String {
        // Fast path: native strings expose their UTF-8 bytes; memchr finds no NUL in nearly every case.
        hasNUL(text) ? String(text.unicodeScalars.filter { $0 != "\0" }.map(Character.init)) : text
    }

    static func hasNUL(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else { return false }
            return memchr(base, 0, bytes.count) != nil
        }
    }
}
