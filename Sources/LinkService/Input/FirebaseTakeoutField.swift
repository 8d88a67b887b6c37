import Foundation

/// The columns of a Firebase Dynamic Links (FDL) Takeout export, in the order of Firebase's "Export Dynamic Links
/// metadata" guide, which is also the order a header without recognisable names is read in (docs/LINKS-IMPORT.md).
enum FirebaseTakeoutField: Int, CaseIterable, Sendable {
    case shortLink, link, apn, afl, amv, ibi, ifl, ius, ipfl, ipbi, isi, imv, efr, ofl, st, sd, si
    case utmSource, utmMedium, utmCampaign, utmTerm, utmContent, at, ct, mt, pt
    case archived, linkName, createdAt

    /// The FDL parameter the column holds (the name in parentheses in the guide's header), if it has one.
    var parameter: String? {
        switch self {
        case .shortLink, .archived, .linkName, .createdAt: nil
        case .utmSource: "utm_source"
        case .utmMedium: "utm_medium"
        case .utmCampaign: "utm_campaign"
        case .utmTerm: "utm_term"
        case .utmContent: "utm_content"
        default: "\(self)"
        }
    }

    /// The guide's description of the column, without the parameter.
    var label: String {
        switch self {
        case .shortLink: "short link"
        case .link: "deep link"
        case .apn: "Android package name"
        case .afl: "Android fallback link"
        case .amv: "Android minimum package version code"
        case .ibi: "iOS bundle ID"
        case .ifl: "iOS fallback link"
        case .ius: "iOS custom scheme"
        case .ipfl: "iOS iPad fallback link"
        case .ipbi: "iOS iPad bundle ID"
        case .isi: "iOS App Store ID"
        case .imv: "iOS minimum version"
        case .efr: "enable forced redirect"
        case .ofl: "desktop fallback link"
        case .st: "social title"
        case .sd: "social description"
        case .si: "social image link"
        case .utmSource, .utmMedium, .utmCampaign, .utmTerm, .utmContent: parameter!
        case .at: "iTunes Connect affiliate token"
        case .ct: "iTunes Connect campaign token"
        case .mt: "iTunes Connect media type"
        case .pt: "iTunes Connect provider token"
        case .archived: "archived"
        case .linkName: "link name"
        case .createdAt: "creation timestamp"
        }
    }

    /// How reports name the column: its parameter, else its label.
    var name: String { parameter ?? label }

    /// The field a header cell names, matched case-insensitively: by the parameter in its last parentheses
    /// (`Android package name (apn)`), else by the whole cell being a parameter or a label (`utm_source`,
    /// `Short link`). `.unknown` when the cell has parentheses naming no FDL parameter; `.unnamed` when it has none
    /// and is no known name (the column is then read by its position).
    static func named(_ cell: String) -> Naming {
        let text = normalized(cell)
        if let open = text.lastIndex(of: "("), let close = text.lastIndex(of: ")"), open < close {
            let parameter = text[text.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
            return allCases.first { $0.parameter == parameter }.map(Naming.field) ?? .unknown
        }
        return allCases.first { $0.parameter == text || normalized($0.label) == text }.map(Naming.field) ?? .unnamed
    }

    enum Naming: Equatable {
        case field(FirebaseTakeoutField)
        case unknown
        case unnamed
    }

    /// Lower case, trimmed, runs of spaces as one.
    private static func normalized(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
