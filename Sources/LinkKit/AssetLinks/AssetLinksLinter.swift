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
        if statements.isEmpty { add(.warning, "noStatements", "", "the list is empty: no app is associated with this domain") }
        for (index, statement) in statements.enumerated() {
            let pointer = JSONPointer.appending("", index)
            guard let members = statement.objectMembers else {
                add(.error, "wrongType", pointer, "a statement must be an object with 'relation' and 'target', not \(statement.typeName)")
                continue
            }
            for member in members where !["relation", "target"].contains(member.key) {
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
                    if !knownRelations.contains(text) {
                        add(.warning, "unknownRelation", itemPointer, "relation '\(text)' is not one Android knows; App Links need '\(AssetLinksFile.handleAllURLs)'")
                    }
                }
            } else {
                add(.error, statement["relation"] == nil ? "missingKey" : "wrongType", relationPointer, "'relation' must be a list of relation strings")
            }
            let targetPointer = JSONPointer.appending(pointer, "target")
            guard let target = statement["target"], target.objectMembers != nil else {
                add(.error, statement["target"] == nil ? "missingKey" : "wrongType", targetPointer, "'target' must be an object with 'namespace'")
                continue
            }
            lintTarget(target, targetPointer, add)
        }
        return findings
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
            if target["site"]?.stringValue == nil {
                add(.error, "missingKey", JSONPointer.appending(pointer, "site"), "a web target needs a 'site' string such as https://example.com")
            }
        case let other?:
            add(.error, "namespace", namespacePointer, "namespace '\(other)' is not 'android_app' or 'web'")
        case nil:
            add(.error, "missingKey", namespacePointer, "'target' needs a 'namespace' string ('android_app')")
        }
    }
}
