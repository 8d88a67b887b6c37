import ByteText
import Foundation
import LinkKit

/// Writes resolve answers as JSON by hand: this is a hot path, and Foundation's encoder costs several
/// times more per response here (docs/field-notes.md §9).
///
/// `{"url":…,"outcome":"open_app","domain":…,"app":{…},"rule":{"id":…,"position":0},
///   "destination":{"type":"widgetDetail","params":{"id":42}},"fallbacks":{"web":…,"appStore":…,"playStore":…}}`
///
/// A URL that cannot be a universal link (`Resolver.Refusal`) has `"outcome":"no_match","reason":"not_https"`.
/// An answer whose app opens the link has `"links":{"universal":…,"scheme":…}` after the destination; a custom
/// scheme no app owns is `"outcome":"unknown_scheme"` with an empty `domain`. A stored link at the URL adds `"link"`
/// before the fallbacks (`write(_:live:into:)`).
///
/// Written as UTF-8 bytes, what the response carries: appending to a `[UInt8]` costs a fraction of appending to a
/// `String` and converting it.
enum ResolveJSON {
    static func write(_ answer: Resolver.Answer, into out: inout [UInt8]) {
        out.append(literal: "{\"url\":")
        JSONString.append(answer.link, to: &out)
        out.append(literal: ",\"outcome\":\"")
        out.append(contentsOf: answer.outcome.rawValue.utf8)
        if let refusal = answer.refusal {
            out.append(literal: "\",\"reason\":\"")
            out.append(contentsOf: refusal.rawValue.utf8)
        }
        out.append(literal: "\",\"platform\":\"")
        out.append(contentsOf: answer.platform.rawValue.utf8)
        out.append(literal: "\",\"domain\":")
        JSONString.append(answer.entry?.hostname ?? (answer.parsed.isWeb ? answer.parsed.host : ""), to: &out)
        if let resolution = answer.resolution {
            if let app = resolution.app {
                out.append(literal: ",\"app\":{\"id\":")
                JSONString.append(app.id, to: &out)
                out.append(literal: ",\"platform\":\"")
                out.append(contentsOf: app.platform.rawValue.utf8)
                out.append(literal: app.platform == .ios ? "\",\"appId\":" : "\",\"packageName\":")
                JSONString.append(app.identifier, to: &out)
                out.append(UInt8(ascii: "}"))
            }
            // The id alone: no copy of the rule. The link space (a stored link decided) is no rule a client can name.
            if let ruleID = resolution.rule?.id, !ruleID.isEmpty, let position = resolution.position {
                out.append(literal: ",\"rule\":{\"id\":")
                JSONString.append(ruleID, to: &out)
                out.append(literal: ",\"position\":")
                out.append(contentsOf: String(position).utf8)
                out.append(UInt8(ascii: "}"))
            }
            if let destination = resolution.destination {
                out.append(literal: ",\"destination\":")
                DestinationJSON.write(destination, into: &out)
                // A destination reserved for signed-in users says so (docs/CODEGEN.md).
                if case .destination(let type, _) = destination, resolution.app?.destinations[type]?.requiresSignIn == true {
                    out.append(literal: ",\"requiresSignIn\":true")
                }
            }
            if let links = answer.links {
                let parsed = answer.parsed
                out.append(literal: ",\"links\":{\"universal\":")
                JSONString.appendQuoted(to: &out) { parsed.appendUniversalText(on: links.universalHost, to: &$0) }
                if let scheme = links.app.customScheme {
                    out.append(literal: ",\"scheme\":")
                    JSONString.appendQuoted(to: &out) { parsed.appendCustomSchemeText(scheme: scheme, to: &$0) }
                }
                out.append(UInt8(ascii: "}"))
            }
        }
        if let link = answer.storedLink { write(link, live: answer.linkIsLive, into: &out) }
        if answer.targeted {
            out.append(literal: ",\"targeted\":true,\"target\":")
            if let target = answer.target { JSONString.append(target, to: &out) } else { out.append(literal: "null") }
            out.append(literal: ",\"variant\":")
            if let variant = answer.variant { JSONString.append(variant, to: &out) } else { out.append(literal: "null") }
        }
        out.append(literal: ",\"fallbacks\":{")
        var first = true
        func member(_ key: StaticString, _ value: String?) {
            guard let value else { return }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(literal: key)
            JSONString.append(value, to: &out)
        }
        member("\"web\":", answer.webFallback)
        member("\"appStore\":", answer.storeURL(for: .ios))
        member("\"playStore\":", answer.storeURL(for: .android))
        out.append(literal: "}}")
    }

    /// `,"link":{"id":…,"slug":…,"url":…,"expired":true,"name":…,"campaign":{"source":…},"data":{…}}`: the stored link
    /// at the URL, the web page it opens (while live), its campaign and the data it hands the app.
    static func write(_ link: ServedLink, live: Bool, into out: inout [UInt8]) {
        out.append(literal: ",\"link\":{\"id\":\"")
        out.append(contentsOf: link.id.canonicalText.utf8)
        out.append(literal: "\",\"slug\":")
        JSONString.append(link.slug, to: &out)
        if live, let url = link.webURL {
            out.append(literal: ",\"url\":")
            JSONString.append(url, to: &out)
        }
        if !live { out.append(literal: ",\"expired\":true") }
        if let name = link.name {
            out.append(literal: ",\"name\":")
            JSONString.append(name, to: &out)
        }
        let campaign = [
            ("source", link.campaign.source), ("medium", link.campaign.medium), ("campaign", link.campaign.campaign),
            ("term", link.campaign.term), ("content", link.campaign.content),
        ].filter { $0.1 != nil }
        if !campaign.isEmpty {
            out.append(literal: ",\"campaign\":{")
            for (index, (key, value)) in campaign.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONString.append(key, to: &out)
                out.append(UInt8(ascii: ":"))
                JSONString.append(value!, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        if let data = link.data {
            out.append(literal: ",\"data\":")
            out.append(contentsOf: data)
        }
        out.append(UInt8(ascii: "}"))
    }
}
