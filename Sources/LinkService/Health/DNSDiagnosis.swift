import Foundation
import LinkKit
import Outbound

/// Which case a name that did not resolve is, judged from the other names one run of the checks asked: the name
/// has no DNS record (others resolved: this server's resolver works), or this server cannot resolve names at all
/// (none resolved: no resolver or no internet), or no other name was asked to tell (`undetermined`); and the next
/// step for each (docs/HEALTH.md, "When a name does not resolve").
struct DNSDiagnosis: Sendable, Equatable {
    enum Cause: String, Sendable {
        case noRecord = "no_record", noResolver = "no_resolver", undetermined
    }

    let cause: Cause
    /// What to do, in words.
    let nextStep: String

    /// The diagnosis of each outcome that failed with `dns` (nil for the others): `linkHost` is the link domain's
    /// serving host, whose record is the domain owner's to make; any other host is a service linkd is configured
    /// to ask (Apple's CDN, Google's API).
    static func of(_ outcomes: [FetchOutcome], linkHost: String) -> [DNSDiagnosis?] {
        let asked = outcomes.compactMap { outcome in Self.name(in: outcome.url).map { (host: $0, resolved: outcome.failure?.kind != .dns) }
        }
        return outcomes.map { outcome in
            guard outcome.failure?.kind == .dns, let host = Self.name(in: outcome.url) else { return nil }
            let others = asked.filter { $0.host != host }
            let resolved = others.filter(\.resolved).map(\.host)
            let unresolved = Set(others.filter { !$0.resolved }.map(\.host)).sorted()
            let cause: Cause = !resolved.isEmpty ? .noRecord : unresolved.isEmpty ? .undetermined : .noResolver
            return DNSDiagnosis(cause: cause, nextStep: step(cause, host: host, isLinkHost: host == linkHost, unresolved: unresolved))
        }
    }

    /// The host of `url` when it is a name, nil for an address (asking it tells nothing of the resolver).
    static func name(in url: String) -> String? {
        guard let host = OutboundURL(url)?.host.lowercased() else { return nil }
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        return IPAddress(bare) == nil ? bare : nil
    }

    private static func step(_ cause: Cause, host: String, isLinkHost: Bool, unresolved: [String]) -> String {
        let network =
            "Check its network connection, its DNS resolver (/etc/resolv.conf) and any firewall or proxy between it and the internet"
        switch (cause, isLinkHost) {
        case (.noRecord, true):
            return "\(host) has no DNS record this server can find, while other names resolve: the name does not point anywhere yet. "
                + "Add an A or AAAA record (or a CNAME) pointing \(host) at this server or the HTTPS front before it, then check again once it has spread."
        case (.noResolver, true):
            return
                "This server cannot resolve names at all: \(unresolved.joined(separator: ", ")) did not resolve either, so it cannot reach its DNS resolver or the internet. "
                + network + "; \(host)'s own record can be judged once names resolve."
        case (.undetermined, true):
            return
                "Either \(host) has no DNS record (add one pointing it at this server or its HTTPS front), or this server cannot reach its DNS resolver "
                + "or the internet (\(network.prefix(1).lowercased() + network.dropFirst())); this run asked no other name that would tell which."
        case (.noRecord, false):
            return "\(host) does not resolve while other names do: the URL linkd is configured to ask names a host that does not exist. "
                + "Check --apple-cdn-url and --google-dal-url (docs/CONFIGURATION.md)."
        case (.noResolver, false), (.undetermined, false):
            return
                "This server cannot resolve \(host), a name on the internet: it cannot reach its DNS resolver or the internet. \(network)."
        }
    }

    /// `cause` and `nextStep`, added to a failure's reason.
    var members: [JSONMember] {
        [JSONMember(key: "cause", value: .string(cause.rawValue)), JSONMember(key: "nextStep", value: .string(nextStep))]
    }
}
