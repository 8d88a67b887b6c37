import Foundation
import LinkKit
import Outbound

extension HealthChecker {
    /// Google's view, one result per Android app of the domain (its id is the subject): `missing` when the Digital
    /// Asset Links API does not list the package with every fingerprint of the app; otherwise the match of the
    /// dynamic rules Google returns for it (`relation_extensions`) with the ones linkd serves: `current`, `stale`
    /// (those of an older version) or `unknown`. `failing` for every app when the API gave no usable answer.
    func googleResults(
        _ outcome: FetchOutcome, apps: [DomainApp], domain: Domain, entry: CatalogEntry,
        versions: [AssociationVersion]
    ) throws -> [CheckResult] {
        guard let response = outcome.response else {
            let reason = Self.failureReason(outcome) ?? .null
            return apps.map { Self.failing(.google, subject: $0.id, url: outcome.url, reason: reason) }
        }
        guard response.status == 200, let document = try? JSONValue.parse(bytes: response.body) else {
            let reason =
                response.status == 200
                ? FetchOutcome.reason("protocol", "Google's API answered something that is not JSON")
                : FetchOutcome.reason("status", "Google's API answered \(response.status)")
            return apps.map { Self.failing(.google, subject: $0.id, url: outcome.url, reason: reason) }
        }
        let statements = Self.googleStatements(document)
        let debug = document["debugString"]?.stringValue.map { String($0.prefix(2_000)) }
        let served = Self.dynamicRules(inAssetLinks: entry.assetLinks.bytes)
        var older: [(number: Int, rules: [String: JSONValue])]?
        return try apps.map { app in
            let listed = statements.filter { $0.package == app.identifier }
            let fingerprints = Set(listed.map(\.fingerprint))
            let missing = app.fingerprints.filter { !fingerprints.contains($0.uppercased()) }
            var members = [
                JSONMember(key: "url", value: .string(outcome.url)),
                JSONMember(key: "packageName", value: .string(app.identifier)),
                JSONMember(key: "listed", value: .bool(!listed.isEmpty)),
                JSONMember(key: "missingFingerprints", value: .array(missing.map { .string($0) })),
            ]
            if let debug { members.append(JSONMember(key: "debugString", value: .string(debug))) }
            guard !listed.isEmpty, missing.isEmpty else { return CheckResult(.google, subject: app.id, .missing, .object(members)) }
            let google = listed.lazy.compactMap(\.rules).first
            let mine = served[app.identifier]
            members.append(JSONMember(key: "dynamicRules", value: google ?? .null))
            if google == mine {
                let version = versions.last(where: { $0.assetLinksETag == entry.assetLinks.etag })?.number
                return CheckResult(
                    .google, subject: app.id, .current,
                    .object(members + VersionMatch.current(version: version).members + [JSONMember(key: "rulesMatch", value: .bool(true))]))
            }
            members.append(JSONMember(key: "rulesMatch", value: .bool(false)))
            members.append(JSONMember(key: "servedDynamicRules", value: mine ?? .null))
            if older == nil {
                older = try pool.withConnection { connection in
                    try AssociationVersionStore.assetLinks(domain: domain.id, on: connection).map {
                        ($0.number, Self.dynamicRules(inAssetLinks: $0.bytes))
                    }
                }
            }
            // The newest older version whose rules for the app are Google's: stale since the next version.
            guard let index = older?.lastIndex(where: { $0.rules[app.identifier] == google }), let older else {
                return CheckResult(.google, subject: app.id, .unknown, .object(members + VersionMatch.unknown.members))
            }
            let number = older[index].number
            if index == older.index(before: older.endIndex) {
                // The latest version's rules: this node has not installed it yet.
                return CheckResult(.google, subject: app.id, .current, .object(members + VersionMatch.current(version: number).members))
            }
            let next = versions.first(where: { $0.number > number })
            let match = VersionMatch.stale(version: number, replacedBy: next?.number, since: next?.createdAt)
            return CheckResult(.google, subject: app.id, .stale, .object(members + match.members))
        }
    }

    /// One statement Google lists: the package, one fingerprint (upper-case) and the dynamic rules it returns
    /// (canonical), if any.
    struct GoogleStatement {
        let package: String
        let fingerprint: String
        let rules: JSONValue?
    }

    /// The `handle_all_urls` statements of a `statements:list` answer for Android apps. Google writes one statement
    /// per fingerprint (`target.androidApp.certificate.sha256Fingerprint`) and the relation extensions as
    /// `relationExtensions` (read as `relation_extensions` too).
    static func googleStatements(_ document: JSONValue) -> [GoogleStatement] {
        (document["statements"]?.arrayValue ?? []).compactMap { statement in
            if let relation = statement["relation"]?.stringValue, relation != handleAllURLs { return nil }
            guard let app = statement["target"]?["androidApp"], let package = app["packageName"]?.stringValue,
                let fingerprint = app["certificate"]?["sha256Fingerprint"]?.stringValue
            else { return nil }
            let extensions = statement["relationExtensions"] ?? statement["relation_extensions"]
            let rules = extensions?[handleAllURLs]?["dynamic_app_link_components"]
            return GoogleStatement(package: package, fingerprint: fingerprint.uppercased(), rules: rules.map(canonical))
        }
    }

    /// The dynamic rules (`dynamic_app_link_components`, canonical) of each package in an assetlinks.json file.
    static func dynamicRules(inAssetLinks bytes: [UInt8]) -> [String: JSONValue] {
        guard let statements = (try? JSONValue.parse(bytes: bytes))?.arrayValue else { return [:] }
        var rules: [String: JSONValue] = [:]
        for statement in statements {
            guard let package = statement["target"]?["package_name"]?.stringValue,
                let components = statement["relation_extensions"]?[handleAllURLs]?["dynamic_app_link_components"]
            else { continue }
            rules[package] = rules[package] ?? canonical(components)
        }
        return rules
    }
}
