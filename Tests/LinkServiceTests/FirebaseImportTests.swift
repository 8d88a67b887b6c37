import Foundation
@testable import LinkService
import Testing

/// Reading Firebase Dynamic Links Takeout files (docs/LINKS-IMPORT.md): the header mapping, the typed row, the
/// per-row problems, and whole generated files fed in chunks.
@Suite("Firebase import: Takeout files")
struct FirebaseImportTests {
    /// The guide's header cell of `field`: its label, with the parameter in parentheses where it has one.
    static func guideName(_ field: FirebaseTakeoutField) -> String {
        guard let parameter = field.parameter else { return field.label.capitalizedFirst }
        return parameter == field.label ? parameter : "\(field.label.capitalizedFirst) (\(parameter))"
    }

    /// One CSV line of `cells`, quoted where RFC 4180 needs it, ended by `end`.
    static func line(_ cells: [String], end: String = "\r\n") -> String {
        cells.map { cell in
            cell.contains(where: { ",\"\r\n".contains($0) }) ? "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : cell
        }.joined(separator: ",") + end
    }

    /// A row in the guide's order from the cells of the fields given (the others empty).
    static func row(_ cells: [FirebaseTakeoutField: String]) -> [String] {
        FirebaseTakeoutField.allCases.map { cells[$0] ?? "" }
    }

    static let full: [FirebaseTakeoutField: String] = [
        .shortLink: "https://Go.Example.com/spring24", .link: "https://example.com/products/42?ref=fdl&x=1,2",
        .apn: "com.example.app", .afl: "https://example.com/android", .amv: "120", .ibi: "com.example.ios",
        .ifl: "https://example.com/ios", .ius: "example", .ipfl: "https://example.com/ipad", .ipbi: "com.example.ipad",
        .isi: "123456789", .imv: "2.1", .efr: "TRUE", .ofl: "https://example.com/desktop",
        .st: "Spring, 24% off", .sd: "The \"best\" sale\nof the year", .si: "https://cdn.example.com/s.png",
        .utmSource: "newsletter", .utmMedium: "email", .utmCampaign: "spring", .utmTerm: "shoes", .utmContent: "top",
        .at: "1010l", .ct: "camp", .mt: "8", .pt: "9999", .archived: "no", .linkName: "Spring newsletter",
        .createdAt: "2024-03-01 09:30:00",
    ]

    /// A Takeout file: a BOM, the guide's header, a full row, a row with only its two required cells, an archived
    /// one, CRLF line ends and no line break after the last row.
    static let file: [UInt8] = {
        var text = "\u{FEFF}" + line(FirebaseTakeoutField.allCases.map(guideName))
        text += line(row(full))
        text += line(row([.shortLink: "https://go.example.com/a/b", .link: "http://example.com/"]))
        text += line(
            row([
                .shortLink: "https://go.example.com/old", .link: "https://example.com/old",
                .archived: "True", .createdAt: "2021-12-31T23:59:59.5+01:00",
            ]), end: "")
        return Array(text.utf8)
    }()

    static func entries(
        _ bytes: [UInt8], chunk size: Int = 4096
    ) throws(FirebaseTakeoutError) -> (FirebaseTakeoutHeader?, [FirebaseTakeoutReader.Entry]) {
        let reader = FirebaseTakeoutReader()
        var entries: [FirebaseTakeoutReader.Entry] = []
        var offset = 0
        while offset < bytes.count {
            entries += try reader.feed(bytes[offset..<min(offset + size, bytes.count)])
            offset += size
        }
        entries += try reader.finish()
        return (reader.header, entries)
    }

    static func link(_ entry: FirebaseTakeoutReader.Entry?) throws -> FirebaseLinkRow {
        let row: FirebaseLinkRow? = if case .link(let row) = entry?.outcome { row } else { nil }
        return try #require(row, "not a link: \(String(describing: entry))")
    }

    @Test func aGeneratedTakeoutFileReadsEveryField() throws {
        let (header, entries) = try Self.entries(Self.file)
        #expect(header?.ignored == [] && header?.missing == [])
        #expect(entries.map(\.row) == [2, 3, 4])
        let full = try Self.link(entries.first)
        #expect(
            full
                == FirebaseLinkRow(
                    shortLink: "https://Go.Example.com/spring24", domain: "go.example.com", slug: "spring24",
                    deepLink: "https://example.com/products/42?ref=fdl&x=1,2",
                    androidPackageName: "com.example.app", androidFallbackLink: "https://example.com/android",
                    androidMinimumVersionCode: 120, iosBundleID: "com.example.ios", iosFallbackLink: "https://example.com/ios",
                    iosCustomScheme: "example", ipadFallbackLink: "https://example.com/ipad", ipadBundleID: "com.example.ipad",
                    appStoreID: "123456789", iosMinimumVersion: "2.1", forcedRedirect: true,
                    desktopFallbackLink: "https://example.com/desktop", socialTitle: "Spring, 24% off",
                    socialDescription: "The \"best\" sale\nof the year", socialImageLink: "https://cdn.example.com/s.png",
                    utmSource: "newsletter", utmMedium: "email", utmCampaign: "spring", utmTerm: "shoes", utmContent: "top",
                    itunesAffiliateToken: "1010l", itunesCampaignToken: "camp", itunesMediaType: "8", itunesProviderToken: "9999",
                    archived: false, linkName: "Spring newsletter", createdAt: Date(timeIntervalSince1970: 1_709_285_400)))

        let bare = try Self.link(entries.dropFirst().first)
        #expect(bare.slug == "a/b" && bare.deepLink == "http://example.com/")
        #expect(bare.androidPackageName == nil && bare.socialTitle == nil && bare.forcedRedirect == nil && bare.createdAt == nil)
        #expect(!bare.archived)

        let archived = try Self.link(entries.last)
        #expect(archived.archived && archived.slug == "old")
        #expect(archived.createdAt == Date(timeIntervalSince1970: 1_640_991_599.5))
    }

    @Test(arguments: [1, 7, 4096])
    func theSameRowsWhateverTheChunks(size: Int) throws {
        let whole = try Self.entries(Self.file)
        let chunked = try Self.entries(Self.file, chunk: size)
        #expect(chunked.0 == whole.0 && chunked.1 == whole.1)
        #expect(chunked.1.count == 3)
    }

    @Test func parenthesisedNamesAreMatchedInAnyOrder() throws {
        let order: [FirebaseTakeoutField] = [.st, .link, .apn, .shortLink, .efr, .archived, .utmSource]
        var cells = order.map(Self.guideName)
        cells[0] = "  SOCIAL   Title (st) "
        cells.append("Clicks (clicks)")
        let text =
            Self.line(cells, end: "\n")
            + Self.line(
                ["Hello", "https://example.com/x", "com.example.app", "https://go.example.com/x", "0", "yes", "mail", "17"], end: "\n")
        let (header, entries) = try Self.entries(Array(text.utf8))
        #expect(header?.columns[.shortLink] == 3 && header?.columns[.st] == 0 && header?.columns[.utmSource] == 6)
        #expect(header?.ignored == [FirebaseTakeoutHeader.IgnoredColumn(column: 8, name: "Clicks (clicks)")])
        #expect(header?.missing.contains(.ibi) == true && header?.missing.contains(.shortLink) == false)
        let row = try Self.link(entries.first)
        #expect(row.socialTitle == "Hello" && row.androidPackageName == "com.example.app" && row.slug == "x")
        #expect(row.forcedRedirect == false && row.archived && row.utmSource == "mail")
    }

    @Test func cellsWithoutParenthesesAreReadByPosition() throws {
        // Neither names nor parentheses: the guide's order. A 30th column is extra.
        let cells = (1...30).map { "column \($0)" }
        let values =
            Self.row([.shortLink: "https://go.example.com/p", .link: "https://example.com/p", .st: "Title", .archived: "1"]) + ["extra"]
        let (header, entries) = try Self.entries(Array((Self.line(cells) + Self.line(values)).utf8))
        #expect(header?.columns == FirebaseTakeoutHeader.positional.columns)
        #expect(header?.ignored == [FirebaseTakeoutHeader.IgnoredColumn(column: 30, name: "column 30")])
        let row = try Self.link(entries.first)
        #expect(row.socialTitle == "Title" && row.archived)

        // A named column keeps its name; the unnamed ones take their own positions.
        let mixed = try FirebaseTakeoutHeader(["Short link", "whatever", "Deep link (link)"])
        #expect(mixed.columns == [.shortLink: 0, .link: 2])
        #expect(mixed.ignored == [FirebaseTakeoutHeader.IgnoredColumn(column: 2, name: "whatever")])
    }

    @Test func aFileWithoutAHeaderIsReadInTheGuidesOrder() throws {
        let text = Self.line(Self.row([.shortLink: "https://go.example.com/nh", .link: "https://example.com/nh"]))
        let (header, entries) = try Self.entries(Array(text.utf8))
        #expect(header == .positional)
        #expect(entries.map(\.row) == [1])
        #expect(try Self.link(entries.first).slug == "nh")
    }

    @Test func aHeaderWithoutTheShortLinkOrTheDeepLinkIsRefused() {
        #expect(throws: FirebaseTakeoutError.missingColumn("short link")) {
            _ = try FirebaseTakeoutHeader(["Deep link (link)", "Social title (st)"])
        }
        #expect(throws: FirebaseTakeoutError.missingColumn("link")) {
            _ = try Self.entries(Array("Short link,Social title (st)\nhttps://go.example.com/x,t\n".utf8))
        }
        // A duplicate column is ignored, not read twice.
        let duplicate = try? FirebaseTakeoutHeader(["Short link", "Deep link (link)", "Other deep link (link)"])
        #expect(duplicate?.ignored == [FirebaseTakeoutHeader.IgnoredColumn(column: 3, name: "Other deep link (link)")])
    }

    @Test func aRowWithBadCellsListsEveryProblemByColumn() throws {
        let text =
            Self.line(FirebaseTakeoutField.allCases.map(Self.guideName))
            + Self.line(
                Self.row([
                    .shortLink: "http://go.example.com/x", .link: "not a url", .amv: "-1", .isi: "id42",
                    .efr: "maybe", .afl: "ftp://example.com/f", .createdAt: "2024-02-30 10:00:00",
                ]))
            + Self.line(Self.row([.shortLink: "https://go.example.com/?q=1"]))
            + Self.line(Self.row([:]))
            + Self.line(Self.row([.shortLink: "https://go.example.com/fine", .link: "https://example.com/"]))
        let (_, entries) = try Self.entries(Array(text.utf8))
        #expect(entries.map(\.row) == [2, 3, 5], "the empty row 4 is skipped")
        #expect(
            entries.first?.outcome
                == .problems([
                    FirebaseRowProblem(
                        column: "short link", message: "must be an https URL with a host and a path, without port, query or fragment"),
                    FirebaseRowProblem(column: "link", message: "must be an http or https URL"),
                    FirebaseRowProblem(column: "amv", message: "must be a whole number, 0 or more"),
                    FirebaseRowProblem(column: "isi", message: "must be digits"),
                    FirebaseRowProblem(column: "creation timestamp", message: "must be an RFC 3339 timestamp or yyyy-MM-dd HH:mm:ss (UTC)"),
                    FirebaseRowProblem(column: "afl", message: "must be an http or https URL"),
                    FirebaseRowProblem(column: "efr", message: "must be true, false, 1, 0, yes or no"),
                ]))
        #expect(
            entries.dropFirst().first?.outcome
                == .problems([
                    FirebaseRowProblem(
                        column: "short link", message: "must be an https URL with a host and a path, without port, query or fragment"),
                    FirebaseRowProblem(column: "link", message: "is required"),
                ]))
        #expect(try Self.link(entries.last).slug == "fine")
    }

    @Test func timestamps() {
        let noon = Date(timeIntervalSince1970: 1_718_712_000) // 2024-06-18T12:00:00Z
        for text in [
            "2024-06-18T12:00:00Z", "2024-06-18t12:00:00z", "2024-06-18 12:00:00", "2024-06-18T14:00:00+02:00",
            "2024-06-18T09:30:00-02:30", "2024-06-18 12:00:00Z",
        ] {
            #expect(FirebaseLinkRow.timestamp(text) == noon, "\(text)")
        }
        #expect(FirebaseLinkRow.timestamp("2024-06-18T12:00:00.125Z") == noon.addingTimeInterval(0.125))
        #expect(FirebaseLinkRow.timestamp("2024-02-29 00:00:00") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(FirebaseLinkRow.timestamp("1970-01-01 00:00:00") == Date(timeIntervalSince1970: 0))
        // Before 1970: outside the dates linkd accepts (`RFC3339.accepted`).
        #expect(FirebaseLinkRow.timestamp("1969-12-31 23:59:59") == nil)
        for text in [
            "2023-02-29 00:00:00", "2024-13-01 00:00:00", "2024-06-18 24:00:00", "2024-06-18", "2024-06-18T12:00:00+2",
            "2024-06-18T12:00:00.Z", "2024-06-18 12:00:00 UTC", "18/06/2024 12:00:00",
        ] {
            #expect(FirebaseLinkRow.timestamp(text) == nil, "\(text)")
        }
    }

    @Test func aMalformedFileIsAnErrorWithItsRow() {
        var text = Self.line(FirebaseTakeoutField.allCases.map(Self.guideName))
        text += Self.line(Self.row([.shortLink: "https://go.example.com/x", .link: "https://example.com/"]))
        text += "https://go.example.com/y,https://example.com/\"oops\"\r\n"
        #expect(throws: FirebaseTakeoutError.csv(CSVError(record: 3, kind: .malformedQuote))) {
            _ = try Self.entries(Array(text.utf8), chunk: 7)
        }
        let wide = Self.line(FirebaseTakeoutField.allCases.map(Self.guideName)) + Self.line(Array(repeating: "x", count: 65))
        #expect(throws: FirebaseTakeoutError.csv(CSVError(record: 2, kind: .tooManyColumns(limit: 64)))) {
            _ = try Self.entries(Array(wide.utf8))
        }
    }
}

private extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
