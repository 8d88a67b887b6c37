import Foundation

/// One link of a Firebase Dynamic Links Takeout export (docs/LINKS-IMPORT.md), its cells checked and typed.
/// Empty cells (or cells of spaces only) are absent. Free text is kept as written; URLs, numbers, booleans and the
/// timestamp are read with surrounding spaces trimmed.
struct FirebaseLinkRow: Equatable, Sendable {
    /// The short link as written (`https://example.page.link/spring24`).
    var shortLink: String
    /// The short link's host, in lower case: the link's domain.
    var domain: String
    /// The short link's path without its leading `/`, exactly as written: the link's slug.
    var slug: String
    /// `link`: the deep link, an http or https URL.
    var deepLink: String
    /// `apn`
    var androidPackageName: String?
    /// `afl`
    var androidFallbackLink: String?
    /// `amv`
    var androidMinimumVersionCode: Int?
    /// `ibi`
    var iosBundleID: String?
    /// `ifl`
    var iosFallbackLink: String?
    /// `ius`
    var iosCustomScheme: String?
    /// `ipfl`
    var ipadFallbackLink: String?
    /// `ipbi`
    var ipadBundleID: String?
    /// `isi`: digits.
    var appStoreID: String?
    /// `imv`
    var iosMinimumVersion: String?
    /// `efr`
    var forcedRedirect: Bool?
    /// `ofl`
    var desktopFallbackLink: String?
    /// `st`
    var socialTitle: String?
    /// `sd`
    var socialDescription: String?
    /// `si`
    var socialImageLink: String?
    var utmSource: String?
    var utmMedium: String?
    var utmCampaign: String?
    var utmTerm: String?
    var utmContent: String?
    /// iTunes Connect `at`, `ct`, `mt`, `pt`.
    var itunesAffiliateToken: String?
    var itunesCampaignToken: String?
    var itunesMediaType: String?
    var itunesProviderToken: String?
    /// Absent reads as false.
    var archived: Bool
    var linkName: String?
    var createdAt: Date?

    /// The row's link, or every problem of its cells.
    static func read(_ cells: [FirebaseTakeoutField: String]) -> FirebaseRowOutcome {
        var problems: [FirebaseRowProblem] = []
        func problem(_ field: FirebaseTakeoutField, _ message: String) {
            problems.append(FirebaseRowProblem(column: field.name, message: message))
        }
        func text(_ field: FirebaseTakeoutField) -> String? {
            guard let cell = cells[field], !cell.allSatisfy(\.isWhitespace) else { return nil }
            return cell
        }
        func trimmed(_ field: FirebaseTakeoutField) -> String? {
            text(field)?.trimmingCharacters(in: .whitespaces)
        }
        func webURL(_ field: FirebaseTakeoutField) -> String? {
            guard let value = trimmed(field) else { return nil }
            guard Self.isWebURL(value) else {
                problem(field, "must be an http or https URL")
                return nil
            }
            return value
        }
        func flag(_ field: FirebaseTakeoutField) -> Bool? {
            guard let value = trimmed(field) else { return nil }
            switch value.lowercased() {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            default:
                problem(field, "must be true, false, 1, 0, yes or no")
                return nil
            }
        }

        var shortLink = "", domain = "", slug = ""
        if let value = trimmed(.shortLink) {
            if let (host, path) = Self.shortLinkParts(value) {
                (shortLink, domain, slug) = (value, host, path)
            } else {
                problem(.shortLink, "must be an https URL with a host and a path, without port, query or fragment")
            }
        } else {
            problem(.shortLink, "is required")
        }
        let deepLink = webURL(.link)
        if trimmed(.link) == nil { problem(.link, "is required") }

        var minimumVersionCode: Int?
        if let value = trimmed(.amv) {
            minimumVersionCode = Int(value).flatMap { $0 >= 0 ? $0 : nil }
            if minimumVersionCode == nil { problem(.amv, "must be a whole number, 0 or more") }
        }
        var appStoreID: String?
        if let value = trimmed(.isi) {
            if !value.isEmpty && value.allSatisfy({ $0.isASCII && $0.isNumber }) {
                appStoreID = value
            } else {
                problem(.isi, "must be digits")
            }
        }
        var createdAt: Date?
        if let value = trimmed(.createdAt) {
            switch RFC3339.read(value, lenient: true) {
            case .date(let date): createdAt = date
            case .malformed: problem(.createdAt, "must be an RFC 3339 timestamp or yyyy-MM-dd HH:mm:ss (UTC)")
            case .outOfRange: problem(.createdAt, "must lie \(RFC3339.acceptedText)")
            }
        }

        let row = FirebaseLinkRow(
            shortLink: shortLink, domain: domain, slug: slug, deepLink: deepLink ?? "",
            androidPackageName: trimmed(.apn), androidFallbackLink: webURL(.afl),
            androidMinimumVersionCode: minimumVersionCode,
            iosBundleID: trimmed(.ibi), iosFallbackLink: webURL(.ifl), iosCustomScheme: trimmed(.ius),
            ipadFallbackLink: webURL(.ipfl), ipadBundleID: trimmed(.ipbi), appStoreID: appStoreID,
            iosMinimumVersion: trimmed(.imv), forcedRedirect: flag(.efr), desktopFallbackLink: webURL(.ofl),
            socialTitle: text(.st), socialDescription: text(.sd), socialImageLink: webURL(.si),
            utmSource: text(.utmSource), utmMedium: text(.utmMedium), utmCampaign: text(.utmCampaign),
            utmTerm: text(.utmTerm), utmContent: text(.utmContent),
            itunesAffiliateToken: trimmed(.at), itunesCampaignToken: trimmed(.ct), itunesMediaType: trimmed(.mt),
            itunesProviderToken: trimmed(.pt),
            archived: flag(.archived) ?? false, linkName: text(.linkName), createdAt: createdAt)
        return problems.isEmpty ? .link(row) : .problems(problems)
    }

    /// An absolute http or https URL with a host.
    static func isWebURL(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "https" || scheme == "http", let host = components.host, !host.isEmpty
        else { return false }
        return true
    }

    /// The lower-cased host and the path without its leading `/` of an https short link; nil if it is not one,
    /// has no path, or carries a port, user, query or fragment (none of which a slug can hold).
    static func shortLinkParts(_ text: String) -> (host: String, slug: String)? {
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "https",
            let host = components.host, !host.isEmpty, components.port == nil, components.user == nil,
            components.password == nil, components.query == nil, components.fragment == nil
        else { return nil }
        let path = components.percentEncodedPath
        guard path.hasPrefix("/"), path.count > 1 else { return nil }
        return (host.lowercased(), String(path.dropFirst()))
    }

    /// `2024-03-01T09:30:00Z`, `2024-03-01T09:30:00.250+01:00` (RFC 3339; `t` and a space also separate the date
    /// from the time) or `2024-03-01 09:30:00` (no zone: UTC): `RFC3339`'s lenient reading.
    static func timestamp(_ text: String) -> Date? {
        RFC3339.date(text, lenient: true)
    }
}

/// What one data row of a Takeout file gave.
enum FirebaseRowOutcome: Equatable, Sendable {
    case link(FirebaseLinkRow)
    case problems([FirebaseRowProblem])
}

/// A problem of one cell, named by its column (the FDL parameter, else the guide's label).
struct FirebaseRowProblem: Equatable, Sendable, CustomStringConvertible {
    let column: String
    let message: String

    var description: String { "\(column): \(message)" }
}
