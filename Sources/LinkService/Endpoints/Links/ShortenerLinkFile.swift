import Foundation
import LinkKit

/// Another link shortener's links export (`format=bitly|rebrandly|dub` of `POST /v1/links/import`): a header row,
/// then one link a row, read into bodies of `POST /v1/links` (docs/LINKS-IMPORT.md, "Bitly, Rebrandly and Dub").
/// Each format names its columns by the names its export and API use; a header cell is matched ignoring case,
/// spaces, `_` and `-` (`long_url`, `Long URL` and `longUrl` are one column).
enum ShortenerLinkFile {
    enum Format: String {
        case bitly, rebrandly, dub
    }

    /// What a column holds.
    enum Field: CaseIterable {
        case shortLink, customShortLinks, domain, slug, url, name, tags, createdAt, archived, expiresAt
        case previewTitle, previewDescription, previewImage
        case utmSource, utmMedium, utmCampaign, utmTerm, utmContent
        case geo, ios, android, testVariants, testCompletedAt
    }

    /// The header names of each field a format has, normalised (`normalised(_:)`), the first one the name a
    /// problem is reported at.
    static func names(_ format: Format) -> [(Field, [String])] {
        switch format {
        case .bitly:
            [
                (.shortLink, ["link", "bitlink", "shortlink", "shorturl"]),
                (.customShortLinks, ["custombitlinks", "custombitlink", "custombackhalf"]),
                (.url, ["longurl", "destination", "destinationurl", "url"]), (.name, ["title"]), (.tags, ["tags"]),
                (.createdAt, ["createdat", "created", "creationdate"]), (.archived, ["archived"]),
            ]
        case .rebrandly:
            [
                (.shortLink, ["shorturl", "shortlink", "link"]), (.domain, ["domain", "domainname", "domainfullname"]),
                (.slug, ["slashtag"]), (.url, ["destination", "destinationurl", "url"]), (.name, ["title"]), (.tags, ["tags"]),
                (.createdAt, ["createdat", "created"]),
            ]
        case .dub:
            [
                (.shortLink, ["shortlink", "link"]), (.domain, ["domain"]), (.slug, ["key"]), (.url, ["url", "destinationurl"]),
                (.previewTitle, ["title"]), (.previewDescription, ["description"]), (.previewImage, ["image"]),
                (.tags, ["tags", "tagnames"]), (.createdAt, ["createdat"]), (.archived, ["archived"]), (.expiresAt, ["expiresat"]),
                (.utmSource, ["utmsource"]), (.utmMedium, ["utmmedium"]), (.utmCampaign, ["utmcampaign"]), (.utmTerm, ["utmterm"]),
                (.utmContent, ["utmcontent"]), (.ios, ["ios"]), (.android, ["android"]), (.geo, ["geo"]),
                (.testVariants, ["testvariants"]), (.testCompletedAt, ["testcompletedat"]),
            ]
        }
    }

    /// `Long URL` → `longurl`.
    static func normalised(_ cell: String) -> String {
        String(cell.lowercased().unicodeScalars.filter { !" _-\t".unicodeScalars.contains($0) })
    }

    /// The field of each header cell (nil: not read, or a field named before).
    static func header(_ cells: [String], format: Format) -> [Field?] {
        let names = names(format)
        var seen: Set<Field> = []
        return cells.map { cell in
            let name = normalised(cell)
            guard let field = names.first(where: { $0.1.contains(name) })?.0, seen.insert(field).inserted else { return nil }
            return field
        }
    }

    /// The column name a problem of `field` is reported at: the header cell as the file wrote it.
    static func columns(_ header: [Field?], cells: [String]) -> [Field: String] {
        var columns: [Field: String] = [:]
        for (position, field) in header.enumerated() {
            if let field { columns[field] = cells[position].trimmingCharacters(in: .whitespaces) }
        }
        return columns
    }

    /// One data row: its body, the problems of its cells, or why it is skipped; and the columns of its body's
    /// members (targets are numbered by row).
    struct Read {
        var body: JSONValue?
        var problems: [(column: String, detail: String)] = []
        var skipped: String?
        var columns: LinkColumns
    }

    /// Reads one data row. `domain` (`?domain=`) puts the link on that domain, its back-half kept; otherwise the
    /// short link's own host is its domain. An archived link is imported already expired (at its creation time,
    /// else `now`).
    static func read(
        _ cells: [String], header: [Field?], names columnNames: [Field: String], format: Format,
        domain: String?, now: Date
    ) -> Read {
        var cell: [Field: String] = [:]
        for (position, field) in header.enumerated() {
            guard let field, position < cells.count else { continue }
            let text = cells[position].trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { cell[field] = text }
        }
        func column(_ field: Field) -> String { columnNames[field] ?? "\(field)" }
        var values: [(pointer: String, value: JSONValue)] = []
        var pointers: [(name: String, pointer: String)] = []
        var problems: [(column: String, detail: String)] = []
        func put(_ field: Field, _ pointer: String, _ value: JSONValue) {
            values.append((pointer, value))
            pointers.append((column(field), pointer))
        }
        if cell.values.contains(where: { $0.utf8.contains(0) }) {
            return Read(
                problems: [("", "A cell contains a NUL character, which linkd does not accept.")], columns: LinkColumns(columns: []))
        }

        // Where: the short link (a custom back-half first, for Bitly), or the domain and slug columns.
        var host = cell[.domain].map { $0.lowercased() }
        var slug = cell[.slug]
        var slugField = Field.slug
        var domainField = Field.domain
        let shortLinks = cell[.customShortLinks].map(list) ?? []
        if let text = shortLinks.first ?? cell[.shortLink] {
            let field: Field = shortLinks.isEmpty ? .shortLink : .customShortLinks
            if let (linkHost, path) = split(text) {
                if host == nil { (host, domainField) = (linkHost, field) }
                if slug == nil { (slug, slugField) = (path, field) }
            } else if slug == nil || host == nil {
                problems.append((column(field), "\(text) is not a short link such as https://bit.ly/spring."))
            }
        }
        if slug == "_root" || (format == .dub && slug == nil && cell[.shortLink].flatMap(split)?.path.isEmpty == true) {
            return Read(
                skipped: "A domain's root link: linkd serves the domain's root itself (its web fallback).",
                columns: LinkColumns(columns: []))
        }
        if let domain { host = domain }
        guard let host, let slug, !slug.isEmpty else {
            if problems.isEmpty {
                problems.append((column(slug == nil ? slugField : domainField), "The row has no short link (its domain and back-half)."))
            }
            return Read(problems: problems, columns: LinkColumns(columns: []))
        }
        put(domainField, "/domain", .string(host))
        put(slugField, "/slug", .string(slug))

        if let url = cell[.url] {
            put(.url, "/url", .string(url))
        } else {
            problems.append((column(.url), "The row has no destination URL."))
        }
        let texts: [(Field, String)] = [
            (.name, "/name"), (.previewTitle, "/preview/title"), (.previewDescription, "/preview/description"),
            (.previewImage, "/preview/imageUrl"), (.expiresAt, "/expiresAt"),
            (.utmSource, "/campaign/source"), (.utmMedium, "/campaign/medium"), (.utmCampaign, "/campaign/campaign"),
            (.utmTerm, "/campaign/term"), (.utmContent, "/campaign/content"),
        ]
        for (field, pointer) in texts { if let text = cell[field] { put(field, pointer, .string(text)) } }
        if let tags = cell[.tags] {
            let names = list(tags)
            if !names.isEmpty { put(.tags, "/tags", .array(names.map(JSONValue.string))) }
        }
        if let archived = cell[.archived], ["true", "1", "yes"].contains(archived.lowercased()), cell[.expiresAt] == nil {
            var created: Date?
            if let text = cell[.createdAt] {
                created = RFC3339.date(zoneWithColon(text), lenient: true)
                if created == nil {
                    problems.append(
                        (column(.createdAt), "\(column(.createdAt)) must be an RFC 3339 timestamp (2024-03-01T09:30:00+0000 or …Z)."))
                }
            }
            put(.archived, "/expiresAt", .timestamp(min(created ?? now, now)))
        }

        // Dub's targeting: the device first (iOS, Android), then the country, as Dub decides.
        var targets: [JSONValue] = []
        for (field, platform) in [(Field.ios, "ios"), (.android, "android")] {
            guard let url = cell[field] else { continue }
            pointers.append((column(field), "/targets/\(targets.count)"))
            targets.append(
                .object([
                    "name": .string(platform), "conditions": .object(["platforms": .array([.object(["platform": .string(platform)])])]),
                    "url": .string(url),
                ]))
        }
        if let geo = cell[.geo] {
            if let value = try? JSONValue.parse(geo), case .object(let members) = value,
                members.allSatisfy({ $0.value.stringValue != nil })
            {
                // Countries sending visitors to the same URL make one target, in the order of their first country.
                var groups: [(url: String, countries: [String])] = []
                for member in members {
                    let url = member.value.stringValue!
                    if let index = groups.firstIndex(where: { $0.url == url }) {
                        groups[index].countries.append(member.key)
                    } else {
                        groups.append((url, [member.key]))
                    }
                }
                for group in groups {
                    let listed = "geo " + group.countries.joined(separator: " ")
                    pointers.append((column(.geo), "/targets/\(targets.count)"))
                    targets.append(
                        .object([
                            "name": .string(listed.count <= 100 ? listed : "geo \(targets.count + 1)"),
                            "conditions": .object(["countries": .array(group.countries.map(JSONValue.string))]),
                            "url": .string(group.url),
                        ]))
                }
            } else {
                problems.append(
                    (column(.geo), "geo must be a JSON object of country codes and URLs, such as {\"DE\":\"https://example.de\"}."))
            }
        }
        if !targets.isEmpty { values.append(("/targets", .array(targets))) }
        if let text = cell[.testVariants] {
            let completed = cell[.testCompletedAt].flatMap { RFC3339.date(zoneWithColon($0), lenient: true) }.map { $0 <= now } ?? false
            if let variants = Self.variants(text) {
                // A test Dub completed sends everyone to the link's URL (its winner): no split is left to import.
                if !completed {
                    pointers.append((column(.testVariants), "/variants"))
                    values.append(("/variants", .array(variants)))
                }
            } else {
                problems.append(
                    (
                        column(.testVariants),
                        "testVariants must be a JSON array of URLs and percentages, such as [{\"url\":\"https://example.com/a\",\"percentage\":50},…]."
                    ))
            }
        }
        return Read(body: problems.isEmpty ? LinkColumns.body(values) : nil, problems: problems, columns: LinkColumns(columns: pointers))
    }

    /// Dub's A/B test (`testVariants`: `[{"url", "percentage"}]`, in order) as linkd's variants of the link itself
    /// (Dub splits the visitors no device or country target takes, as linkd's link-level variants do): named `A`,
    /// `B`… in order, each weighing its percentage. Nil when the text is not such an array.
    static func variants(_ text: String) -> [JSONValue]? {
        guard case .array(let items)? = try? JSONValue.parse(text) else { return nil }
        var variants: [JSONValue] = []
        for (index, item) in items.enumerated() {
            guard let url = item["url"]?.stringValue, case .number(let percentage)? = item["percentage"], index < 26 else { return nil }
            let name = String(UnicodeScalar(UInt8(ascii: "A") + UInt8(index)))
            variants.append(.object(["name": .string(name), "weight": .number(percentage), "url": .string(url)]))
        }
        return variants
    }

    /// `2024-03-01T09:30:00+0000` (Bitly's form) → `2024-03-01T09:30:00+00:00`; other texts as they are.
    static func zoneWithColon(_ text: String) -> String {
        let zone = text.suffix(5)
        guard text.count > 19, let sign = zone.first, sign == "+" || sign == "-", zone.dropFirst().allSatisfy(\.isASCII),
            zone.dropFirst().allSatisfy(\.isNumber)
        else { return text }
        return text.dropLast(2) + ":" + text.suffix(2)
    }

    /// `https://bit.ly/spring` or `bit.ly/spring` → (`bit.ly`, `spring`); nil when it names no host.
    static func split(_ text: String) -> (host: String, path: String)? {
        var rest = Substring(text)
        for scheme in ["https://", "http://"] where rest.lowercased().hasPrefix(scheme) { rest = rest.dropFirst(scheme.count) }
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !host.isEmpty, host.contains("."), !host.contains(where: { $0.isWhitespace || $0 == "@" || $0 == ":" }) else { return nil }
        let path = rest.dropFirst(host.count).drop { $0 == "/" }.prefix { $0 != "?" && $0 != "#" }
        return (host.lowercased(), String(path))
    }

    /// A JSON array of strings, or a list separated by commas (or `|`, or `;`).
    static func list(_ text: String) -> [String] {
        if text.hasPrefix("["), let value = try? JSONValue.parse(text), case .array(let items) = value {
            return items.compactMap(\.stringValue).filter { !$0.isEmpty }
        }
        return text.split(whereSeparator: { ",|;".contains($0) }).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
