import Foundation
import LinkKit
import Postgres

extension Hit {
    /// Microseconds since 1970, the precision PostgreSQL keeps.
    var micros: Int64 { Int64((time.timeIntervalSince1970 * 1_000_000).rounded()) }

    /// Appends the hit's spool line (without the newline): the microsecond time, then workspace_id, hostname,
    /// path, query, outcome, app_id, rule_id, destination_type, source, platform, is_bot, referrer_host,
    /// visitor_hash and, when set, served, COPY-text-escaped and tab-separated (nil as `\N`); a hit with a link
    /// or a campaign adds served (`\N` when unset), link_id and the five `utm_*` fields (21 fields), and one with a
    /// country, OS, browser or device class those four after them (25 fields), and one with a target or variant those two
    /// after them (27 fields). The line of a hit without them is
    /// what every earlier version wrote (14, 15 or 21 fields), and every form reads back. NUL bytes, which
    /// PostgreSQL text cannot hold, are left out, so a hostile URL can never make a batch fail.
    ///
    /// Written as bytes: the spool takes over when the database falls behind, so it must write faster than
    /// hits arrive, which a line built from `String`s does not (bench/hits).
    func appendSpoolLine(to out: inout [UInt8]) {
        out.append(contentsOf: String(micros).utf8)
        func field(_ text: String?) {
            out.append(9)
            SpoolEscaping.append(text, to: &out)
        }
        func field(_ id: UUID?) {
            out.append(9)
            if let id { id.appendCanonicalText(to: &out) } else { out.append(contentsOf: "\\N".utf8) }
        }
        field(workspaceID)
        field(hostname)
        field(path)
        field(query)
        field(outcome.rawValue)
        field(appID)
        field(ruleID)
        field(destinationType)
        field(source.rawValue)
        field(platform.rawValue)
        field(isBot ? "t" : "f")
        field(referrerHost)
        field(visitorHash)
        // Only when set, so a line without them keeps the format of spools written before they existed.
        let hasTarget = target != nil || variant != nil
        let hasDimensions = country != nil || os != nil || browser != nil || device != nil || hasTarget
        if linkID != nil || campaign != nil || hasDimensions {
            field(served?.rawValue)
            field(linkID)
            for name in Campaign.Field.allCases { field(campaign?[name]) }
            if hasDimensions {
                field(country)
                field(os)
                field(browser)
                field(device?.rawValue)
                if hasTarget {
                    field(target)
                    field(variant)
                }
            }
        } else if let served {
            field(served.rawValue)
        }
    }

    /// Reads a line written by `appendSpoolLine` (or by a build before `served`, 14 fields, before links and
    /// campaigns, 15, or before countries, OS, browsers and devices, 21); nil when it is damaged (e.g. cut by a
    /// crash mid-write).
    init?(spoolLine line: Substring) {
        let parts = line.utf8.split(separator: 9, omittingEmptySubsequences: false).map { Substring($0) }
        guard [14, 15, 21, 25, 27].contains(parts.count), let micros = Int64(parts[0]) else { return nil }
        let fields = parts.map(SpoolEscaping.unescape)
        guard let hostname = fields[2], let path = fields[3],
            let outcome = fields[5].flatMap(Outcome.init(rawValue:)),
            let source = fields[9].flatMap(Source.init(rawValue:)),
            let platform = fields[10].flatMap(DevicePlatform.init(rawValue:)),
            let bot = fields[11], bot == "t" || bot == "f"
        else { return nil }
        let served = parts.count >= 15 ? fields[14] : nil
        guard served == nil || Served(rawValue: served!) != nil else { return nil }
        var linkID: UUID?
        var campaign: Campaign?
        if parts.count >= 21 {
            if parts[15] != "\\N" {
                guard let id = UUID.canonical(parts[15]) else { return nil }
                linkID = id
            }
            campaign = Campaign(source: fields[16], medium: fields[17], campaign: fields[18], term: fields[19], content: fields[20])
        }
        self.init(
            time: Date(timeIntervalSince1970: Double(micros) / 1_000_000), workspaceID: parts[1] == "\\N" ? nil : UUID.canonical(parts[1]),
            hostname: hostname, path: path, query: fields[4], outcome: outcome,
            appID: parts[6] == "\\N" ? nil : UUID.canonical(parts[6]), ruleID: parts[7] == "\\N" ? nil : UUID.canonical(parts[7]),
            destinationType: fields[8], source: source, platform: platform, isBot: bot == "t",
            referrerHost: fields[12], visitorHash: fields[13], served: served.flatMap(Served.init(rawValue:)),
            linkID: linkID, campaign: campaign
        )
        if parts.count == 27 { (target, variant) = (fields[25], fields[26]) }
        if parts.count >= 25 {
            guard fields[24] == nil || Device(rawValue: fields[24]!) != nil else { return nil }
            (country, os, browser, device) = (fields[21], fields[22], fields[23], fields[24].flatMap(Device.init(rawValue:)))
        }
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

extension Hit: SpoolRecord {
    static var spoolExtension: String { "hits" }
}
