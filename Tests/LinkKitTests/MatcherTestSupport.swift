@testable import LinkKit

/// Short names for the apps of the matcher tables.
let appA = "ABCDE12345.com.example.app"
let appB = "FGHIJ67890.com.example.other"

/// An AASA text with one details entry for `appA` holding `components` (JSON array text).
func single(_ components: String, defaults: String? = nil, domainDefaults: String? = nil, variables: String? = nil) -> String {
    var applinks: [String] = []
    if let domainDefaults { applinks.append(#""defaults":\#(domainDefaults)"#) }
    if let variables { applinks.append(#""substitutionVariables":\#(variables)"#) }
    let entryDefaults = defaults.map { #","defaults":\#($0)"# } ?? ""
    applinks.append(#""details":[{"appIDs":["\#(appA)"],"components":\#(components)\#(entryDefaults)}]"#)
    return #"{"applinks":{\#(applinks.joined(separator: ","))}}"#
}

/// The resolution in a compact form: `A 0.1` (app A opens, entry 0 component 1), `B 1.0`, `blocked 0.2`, `none`.
func outcome(_ aasa: String, _ url: String) throws -> String {
    let matcher = AASAMatcher(try AASAFile.decode(aasa))
    let resolution = matcher.resolve(try AASAURL(url))
    let place = resolution.decision.map { "\($0.detailIndex!).\($0.componentIndex!)" } ?? ""
    switch resolution.appID {
    case appA?: return "A \(place)"
    case appB?: return "B \(place)"
    case let other?: return "\(other) \(place)"
    case nil: return resolution.decision == nil ? "none" : "blocked \(place)"
    }
}

/// One row of a matcher table.
struct MatchCase: CustomStringConvertible, Sendable {
    let aasa: String
    let url: String
    let expected: String
    let note: String

    init(_ note: String, _ aasa: String, _ url: String, _ expected: String) {
        self.note = note
        self.aasa = aasa
        self.url = url
        self.expected = expected
    }

    var description: String { "\(note): \(url) → \(expected)" }
}
