/// Finds mistakes in an `assetlinks.json` file, each with a JSON pointer and a sentence (docs/aasa-semantics.md §10).
public enum AssetLinksLinter: Sendable {
    /// Relations lint knows; others get a warning (they may be new, but are more often typos).
    public static let knownRelations: Set<String> = [
        AssetLinksFile.handleAllURLs,
        "delegate_permission/common.get_login_creds",
        "delegate_permission/common.use_as_origin",
        "delegate_permission/common.query_webapk",
    ]

    /// Lints the text of a file.
    /// - Parameter text: the JSON text.
    /// - Returns: the findings in document order.
    public static func lint(text: String) -> [LintFinding] {
        do {
            return lint(json: try JSONValue.parse(text))
        } catch {
            return [LintFinding(.error, "malformedJSON", "", error.message)]
        }
    }

    /// Lints a parsed file.
    /// - Parameter json: the JSON tree.
    /// - Returns: the findings in document order.
    public static func lint(json: JSONValue) -> [LintFinding] {
        guard let statements = json.arrayValue else {
            return [LintFinding(.error, "wrongType", "", "assetlinks.json must be a JSON list of statements, not \(json.typeName)")]
        }
        var findings: [LintFinding] = []
        func add(_ severity: LintFinding.Severity, _ code: String, _ pointer: String, _ message: String) {
            findings.append(LintFinding(severity, code, pointer, message))
        }
        var dynamicPackages: Set<String> = []
        if statements.isEmpty { add(.warning, "noStatements", "", "the list is empty: no app is associated with this domain") }
        for (index, statement) in statements.enumerated() {
            let pointer = JSONPointer.appending("", index)
            guard let members = statement.objectMembers else {
                add(.error, "wrongType", pointer, "a statement must be an object with 'relation' and 'target', not \(statement.typeName)")
                continue
            }
            if let include = statement["include"] {
                lintInclude(include, statement, pointer, add)
                continue
            }
            for member in members where !["relation", "target", "relation_extensions"].contains(member.key) {
                add(.warning, "unknownKey", JSONPointer.appending(pointer, member.key), "unknown statement key '\(member.key)' is ignored")
            }
            let relationPointer = JSONPointer.appending(pointer, "relation")
            if let relations = statement["relation"]?.arrayValue {
                if relations.isEmpty { add(.error, "noRelation", relationPointer, "'relation' is empty: the statement grants nothing") }
                for (offset, relation) in relations.enumerated() {
                    let itemPointer = JSONPointer.appending(relationPointer, offset)
                    guard let text = relation.stringValue else {
                        add(.error, "wrongType", itemPointer, "relations must be strings, not \(relation.typeName)")
                        continue
                    }
                    if let problem = AssetLinksSyntax.relationProblem(text) {
                        add(.error, "relation", itemPointer, problem + ": Google drops the statement as malformed")
                    } else if !knownRelations.contains(text) {
                        add(
                            .warning, "unknownRelation", itemPointer,
                            "relation '\(text)' is not one Android knows; App Links need '\(AssetLinksFile.handleAllURLs)'")
                    }
                }
            } else {
                add(
                    .error, statement["relation"] == nil ? "missingKey" : "wrongType", relationPointer,
                    "'relation' must be a list of relation strings")
            }
            let targetPointer = JSONPointer.appending(pointer, "target")
            guard let target = statement["target"], target.objectMembers != nil else {
                add(
                    .error, statement["target"] == nil ? "missingKey" : "wrongType", targetPointer,
                    "'target' must be an object with 'namespace'")
                continue
            }
            lintTarget(target, targetPointer, add)
            if let extensions = statement["relation_extensions"] {
                let package = target["package_name"]?.stringValue ?? ""
                let declares = lintExtensions(extensions, JSONPointer.appending(pointer, "relation_extensions"), add)
                if declares, !dynamicPackages.insert(package).inserted {
                    add(
                        .warning, "duplicateDynamicRules", JSONPointer.appending(pointer, "relation_extensions"),
                        "'\(package)' already has dynamic_app_link_components in an earlier statement: Android does not say which it uses")
                }
            }
        }
        return findings
    }

    /// An include statement (`{"include": "https://…/more.json"}`) is valid: Google reads the statements of that
    /// file too. It may carry other keys (for extensibility) but not `relation`, `target` or `relation_extensions`;
    /// its URL is an https URL (Google does not follow an http include from an https file). linkd neither fetches
    /// nor checks the included file, and says so.
    private static func lintInclude(
        _ include: JSONValue, _ statement: JSONValue, _ pointer: String, _ add: (LintFinding.Severity, String, String, String) -> Void
    ) {
        let includePointer = JSONPointer.appending(pointer, "include")
        for key in ["relation", "target", "relation_extensions"] where statement[key] != nil {
            add(
                .error, "includeWithStatement", JSONPointer.appending(pointer, key),
                "an include statement may not have '\(key)': Google drops it as malformed; put the statement in its own object")
        }
        guard let url = include.stringValue else {
            add(.error, "wrongType", includePointer, "'include' must be the URL string of another statement list, not \(include.typeName)")
            return
        }
        guard url.lowercased().hasPrefix("https://"), url.utf8.count > 8, !url.contains(where: { $0 == " " }) else {
            add(
                .error, "include", includePointer,
                "include '\(url.prefix(200))' must be an https URL: Google does not follow an include that is not https from an https site")
            return
        }
        add(
            .warning, "includeNotFollowed", includePointer,
            "linkd does not follow include '\(url.prefix(200))': its statements are not checked, and a --package check sees this file only")
    }

    private static func lintTarget(
        _ target: JSONValue, _ pointer: String, _ add: (LintFinding.Severity, String, String, String) -> Void
    ) {
        let namespacePointer = JSONPointer.appending(pointer, "namespace")
        switch target["namespace"]?.stringValue {
        case "android_app":
            let packagePointer = JSONPointer.appending(pointer, "package_name")
            if let name = target["package_name"]?.stringValue {
                do { _ = try AndroidPackageName(name) } catch { add(.error, "packageName", packagePointer, error.message) }
            } else {
                add(.error, "missingKey", packagePointer, "an android_app target needs a 'package_name' string")
            }
            let fingerprintsPointer = JSONPointer.appending(pointer, "sha256_cert_fingerprints")
            guard let fingerprints = target["sha256_cert_fingerprints"]?.arrayValue, !fingerprints.isEmpty else {
                add(.error, "missingKey", fingerprintsPointer, "an android_app target needs a non-empty 'sha256_cert_fingerprints' list")
                return
            }
            for (index, fingerprint) in fingerprints.enumerated() {
                let itemPointer = JSONPointer.appending(fingerprintsPointer, index)
                guard let text = fingerprint.stringValue else {
                    add(.error, "wrongType", itemPointer, "fingerprints must be strings, not \(fingerprint.typeName)")
                    continue
                }
                do { _ = try CertificateFingerprint(text) } catch { add(.error, "fingerprint", itemPointer, error.message) }
            }
        case "web":
            let sitePointer = JSONPointer.appending(pointer, "site")
            if let site = target["site"]?.stringValue {
                if let problem = AssetLinksSyntax.siteProblem(site) {
                    add(.error, "site", sitePointer, problem + ": Google drops the statement as malformed")
                }
            } else {
                add(.error, "missingKey", sitePointer, "a web target needs a 'site' string such as https://example.com")
            }
        case let other?:
            add(.error, "namespace", namespacePointer, "namespace '\(other)' is not 'android_app' or 'web'")
        case nil:
            add(.error, "missingKey", namespacePointer, "'target' needs a 'namespace' string ('android_app')")
        }
    }
}
