import Foundation
import HTTPServer
import LinkKit
import Postgres

/// Validates a domain's rule list as a whole before anything is saved: the apps exist in the workspace,
/// every app of a rule declares the rule's destination type and every required parameter is bound, and
/// the association file the list generates lints clean and stays under Apple's 128 KB.
enum RuleValidator {
    struct Outcome {
        /// The domain as the catalog serves it: with every app of its workspace, the rules without ids.
        let compiled: CompiledDomain
        /// Lint findings of the generated file (errors were already thrown).
        let findings: [LintFinding]
        let inputs: [RuleDefinition]
        let apps: DomainLoader.WorkspaceApps
        /// The domain's link space, compiled after the rules.
        let links: LinkSpace
        let linkApps: [String]

        /// The catalog entry of `domain` once saved with these rules (`rules`, as stored), as a catalog load
        /// builds it (`CatalogLoader`), from this compilation.
        func entry(_ domain: Domain, rules: [StoredRule]) -> CatalogEntry {
            let clicks = Dictionary(
                inputs.enumerated().compactMap { index, input in input.click.map { (index, $0) } },
                uniquingKeysWith: { first, _ in first })
            // Last-Modified: the latest change to anything the files are made from.
            let used = Set(inputs.flatMap(\.apps)).union(domain.settings.webcredentials).union(links.apps)
            let lastModified = used.compactMap { apps.updated[$0] }.reduce(rules.map(\.updatedAt).reduce(domain.updatedAt, max), max)
            return CatalogEntry(
                domain: domain, rules: CompiledRules(compiled, clicks: clicks, linkApps: linkApps), ruleIDs: rules.map(\.id),
                links: links, lastModified: lastModified)
        }
    }

    /// - Parameters:
    ///   - rules: the proposed list, with the JSON pointer each rule came from.
    ///   - counter: counts the compilation (`linkd_catalog_compilations_total` counts every one, previews included).
    /// - Throws: `ServiceError.validation` listing every problem with its pointer.
    static func validate(
        _ rules: [(id: UUID, definition: RuleDefinition, pointer: String)], domain: Domain, on connection: Connection,
        counter: CompilationCounter
    ) throws -> Outcome {
        let errors = FieldErrors()
        // One read of the workspace's apps: those the rules name must exist, and the domain is compiled with all
        // of them, as a catalog load compiles it.
        let apps = try DomainLoader.workspaceApps(domain.workspaceID, on: connection)
        let known = Dictionary(apps.apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for rule in rules {
            for (index, app) in rule.definition.apps.enumerated() where known[app.canonicalText] == nil {
                errors.add(
                    JSONPointer.appending(JSONPointer.appending(rule.pointer, "apps"), index),
                    "No app \(app.canonicalText) in this workspace.")
            }
            guard let binding = rule.definition.destination else { continue }
            let captures = rule.definition.rule(id: rule.id).captureNames
            for app in rule.definition.apps.compactMap({ known[$0.canonicalText] }) {
                let destinationPointer = JSONPointer.appending(rule.pointer, "destination")
                guard let type = app.destinations[binding.type] else {
                    errors.add(
                        JSONPointer.appending(destinationPointer, "type"),
                        "The app \(app.identifier) has no destination type '\(binding.type)'; create it under /v1/apps/\(app.id)/destinations."
                    )
                    continue
                }
                for problem in binding.problems(with: type, captures: captures) {
                    errors.add(destinationPointer, "\(problem) (app \(app.identifier))")
                }
            }
        }
        try errors.check()
        // Without rule ids, as the catalog holds it (`CatalogEntry.ruleIDs` reports them), the link space after the rules.
        let links = try LinkStore.spaces(domains: [domain.id], on: connection)[domain.id] ?? .none
        let linkRules = rules.map { $0.definition.rule(id: "") }
        let linkSpace = links.rules(after: linkRules, apps: apps.apps)
        let compiled = CompiledDomain(
            settings: domain.settings.resolved(hostname: domain.hostname), apps: apps.apps,
            rules: linkRules + linkSpace)
        counter.add(1)
        var findings = AASALinter.lint(json: compiled.aasa.json)
        for finding in findings where finding.severity == .error {
            errors.add(pointer(of: finding, in: compiled, rules: rules), finding.message)
        }
        let cost = compiled.scanCost
        if let crossing = cost.crossing {
            errors.add(
                crossing < rules.count ? rules[crossing].pointer : "",
                "Matching a URL against these rules could cost \(cost.weight) comparisons per byte of it, more than the \(CompiledDomain.maximumScanWeight) a domain allows, from this rule on: what a pattern has between two '*'s is looked for at every position of the URL. Give the rules distinct literal prefixes ('/items/*') or literal suffixes ('*.pdf')."
            )
        }
        let size = compiled.aasaBytes.count
        if size > AASAFile.maximumSize {
            errors.add(
                "",
                "The generated apple-app-site-association file would be \(size) bytes; iOS rejects files over \(AASAFile.maximumSize) bytes (128 KB). Merge rules or use wildcards."
            )
        }
        try errors.check()
        if links.hasLinks { findings += try shadowedLinks(compiled, rules: rules, domain: domain, apps: known, on: connection) }
        if !linkSpace.isEmpty { findings += try linkSpaceFindings(compiled, rules: rules, domain: domain, on: connection) }
        return Outcome(
            compiled: compiled, findings: findings, inputs: rules.map(\.definition), apps: apps, links: links,
            linkApps: linkSpace.first?.apps ?? [])
    }

    /// The request pointer a lint finding on the generated file refers to: `/applinks/details/D/components/C…`
    /// becomes the pointer of the rule that wrote that component.
    /// Links checked against a rule change at most (the oldest first); the finding says when there were more.
    static let shadowCheckLimit = 10_000

    /// A warning at each rule that would decide a link's URL otherwise than the link (`LinkPlacement`), naming the links.
    static func shadowedLinks(
        _ compiled: CompiledDomain, rules: [(id: UUID, definition: RuleDefinition, pointer: String)], domain: Domain,
        apps: [String: DomainApp], on connection: Connection
    ) throws -> [LintFinding] {
        let stored = try LinkStore.placements(domain: domain.id, limit: Self.shadowCheckLimit + 1, on: connection)
        var byRule: [Int: [String]] = [:]
        let host = Hostname.servingHost(of: domain.hostname)
        for link in stored.prefix(Self.shadowCheckLimit) {
            let app = link.app.flatMap { apps[$0.canonicalText] }.map { (id: $0.id, platform: $0.platform) }
            let placement = LinkPlacement(slug: link.slug, app: app, destinationType: link.type)
            if let conflict = placement.conflict(host: host, ruleCount: rules.count, resolve: { compiled.resolve($0, platform: $1) }) {
                byRule[conflict.position, default: []].append(link.slug)
            }
        }
        let more = stored.count > Self.shadowCheckLimit ? " (of the domain's oldest \(Self.shadowCheckLimit) links)" : ""
        return byRule.keys.sorted().map { position in
            let slugs = byRule[position]!
            let named = slugs.prefix(10).map { "/" + $0 }.joined(separator: ", ") + (slugs.count > 10 ? ", …" : "")
            return LintFinding(
                .warning, "shadowedLinks", rules[position].pointer,
                """
                This rule decides the URLs of \(slugs.count) stored link\(slugs.count == 1 ? "" : "s")\(more) otherwise than the links: \
                \(named). They would no longer open what they point at.
                """)
        }
    }

    /// What the link space opens that the rules keep from apps (`LinkSpaceMoves`, against the same rules without it), a
    /// warning at each rule; and the links to web pages that open the app on a phone with it (stored before links to web
    /// pages and to apps were kept apart), a warning naming them.
    static func linkSpaceFindings(
        _ compiled: CompiledDomain, rules: [(id: UUID, definition: RuleDefinition, pointer: String)], domain: Domain,
        on connection: Connection
    ) throws -> [LintFinding] {
        let own = Array(compiled.rules.prefix(rules.count))
        let bare = CompiledDomain(settings: compiled.settings, apps: compiled.apps, rules: own)
        var findings = LinkSpaceMoves(from: bare, to: compiled, ruleCount: rules.count, host: Hostname.servingHost(of: domain.hostname))
            .moves.map {
                LintFinding(
                    .warning, "linkSpaceMoves", rules[$0.position].pointer,
                    """
                    \($0.sentence) The reason is the link space: the domain's links to apps claim every path no rule decides for \
                    their app on each platform (docs/LINKS.md, "The link space").
                    """)
            }
        if let count = try LinkStore.webLinkCounts(domains: [domain.id], on: connection)[domain.id] {
            let slugs = try LinkStore.webLinkSlugs(domain: domain.id, excluding: nil, limit: LinkPlaces.namedWebLinks, on: connection)
            let listed = slugs.map { "/" + $0 }.joined(separator: ", ") + (count > slugs.count ? ", …" : "")
            findings.append(
                LintFinding(
                    .warning, "webLinksOpenApp", "",
                    """
                    \(count) link\(count == 1 ? "" : "s") to web pages (\(listed)) open the app, not the page, on a phone with the app: the \
                    domain's links to apps claim every path no rule decides. Move links to web pages to a domain whose links open no app.
                    """))
        }
        return findings
    }

    static func pointer(
        of finding: LintFinding, in compiled: CompiledDomain, rules: [(id: UUID, definition: RuleDefinition, pointer: String)]
    ) -> String {
        let parts = finding.pointer.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count >= 6, parts[1] == "applinks", parts[2] == "details", parts[4] == "components",
            let detail = Int(parts[3]), let component = Int(parts[5]),
            let position = compiled.rulePosition(detail: detail, component: component), position < rules.count
        {
            return rules[position].pointer
        }
        return ""
    }
}
