/// An Android `assetlinks.json` file: a list of Digital Asset Links statements (docs/aasa-semantics.md §10).
public struct AssetLinksFile: Sendable, Hashable {
    /// The relation that lets an app verify App Links for the domain.
    public static let handleAllURLs = "delegate_permission/common.handle_all_urls"

    /// The statements, in file order.
    public var statements: [AssetLinksStatement]

    /// Creates a file.
    /// - Parameter statements: the statements.
    public init(statements: [AssetLinksStatement]) { self.statements = statements }

    /// Parses and leniently decodes a file: statements that are not objects, and values of the wrong type, are
    /// skipped (`AssetLinksLinter` reports them), and so is every statement Google drops as malformed (a relation
    /// that is not a well-formed `kind/detail` string, a `site` that is not an origin): such a statement grants
    /// nothing, even beside a well-formed `handle_all_urls`. Include statements grant nothing here (linkd does not
    /// follow them).
    /// - Parameter text: the JSON text.
    /// - Throws: `LinkKitError` `.malformedJSON`, or `.invalidDocument` when the top level is not a list.
    public static func decode(_ text: String) throws(LinkKitError) -> AssetLinksFile {
        try AssetLinksFile(json: JSONValue.parse(text))
    }

    /// Decodes a parsed file.
    /// - Parameter json: the JSON tree.
    /// - Throws: `LinkKitError` `.invalidDocument` when the top level is not a list.
    public init(json: JSONValue) throws(LinkKitError) {
        guard let elements = json.arrayValue else {
            throw LinkKitError(.invalidDocument, "assetlinks.json must be a JSON list of statements, not \(json.typeName)", pointer: "")
        }
        statements = elements.compactMap(AssetLinksStatement.init(lenient:))
    }

    /// Whether a statement grants `handle_all_urls` to the app with this package name and signing certificate:
    /// the relation is listed, the target is `android_app`, the package name is identical and the fingerprint is in
    /// its list in the exact upper-case colon form (a lower-case or colon-less entry in the file does not count).
    /// - Parameters:
    ///   - packageName: the application ID.
    ///   - fingerprint: the SHA-256 certificate fingerprint.
    public func grantsHandleAllURLs(packageName: AndroidPackageName, fingerprint: CertificateFingerprint) -> Bool {
        statements.contains { statement in
            guard statement.relations.contains(Self.handleAllURLs),
                case .androidApp(let name, let fingerprints) = statement.target, name == packageName.rawValue
            else { return false }
            return fingerprints.contains { (try? CertificateFingerprint($0)) == fingerprint }
        }
    }

    /// The canonical JSON tree: statements in order, keys `relation`, `target` (`namespace`, then the target's keys).
    public var json: JSONValue { .array(statements.map(\.json)) }

    /// The canonical compact JSON text (byte-stable).
    public func encoded() -> String { json.serialized }
}

/// One statement: relations granted to a target.
public struct AssetLinksStatement: Sendable, Hashable {
    /// The relations, e.g. `delegate_permission/common.handle_all_urls`.
    public var relations: [String]
    /// Who is granted them.
    public var target: AssetLinksTarget

    /// Creates a statement.
    /// - Parameters:
    ///   - relations: the relations.
    ///   - target: the target.
    public init(relations: [String], target: AssetLinksTarget) {
        self.relations = relations
        self.target = target
    }

    init?(lenient json: JSONValue) {
        guard case .object = json, let target = json["target"], case .object = target else { return nil }
        let listed = json["relation"]?.arrayValue ?? []
        relations = listed.compactMap(\.stringValue)
        guard relations.count == listed.count, relations.allSatisfy({ AssetLinksSyntax.relationProblem($0) == nil }) else { return nil }
        switch target["namespace"]?.stringValue {
        case "android_app":
            self.target = .androidApp(
                packageName: target["package_name"]?.stringValue ?? "",
                fingerprints: target["sha256_cert_fingerprints"]?.arrayValue?.compactMap(\.stringValue) ?? []
            )
        case "web":
            guard let site = target["site"]?.stringValue, AssetLinksSyntax.siteProblem(site) == nil else { return nil }
            self.target = .web(site: site)
        case let other:
            self.target = .other(namespace: other ?? "")
        }
    }

    /// The JSON tree of this statement.
    public var json: JSONValue {
        let target: JSONValue
        switch self.target {
        case .androidApp(let packageName, let fingerprints):
            target = .object([
                "namespace": .string("android_app"), "package_name": .string(packageName),
                "sha256_cert_fingerprints": .array(fingerprints.map(JSONValue.string)),
            ])
        case .web(let site):
            target = .object(["namespace": .string("web"), "site": .string(site)])
        case .other(let namespace):
            target = .object(["namespace": .string(namespace)])
        }
        return .object(["relation": .array(relations.map(JSONValue.string)), "target": target])
    }
}

/// The target of a statement.
public enum AssetLinksTarget: Sendable, Hashable {
    /// An Android app: its package name and signing-certificate fingerprints (as written).
    case androidApp(packageName: String, fingerprints: [String])
    /// A web site, e.g. `https://example.com`.
    case web(site: String)
    /// Any other namespace (kept so indices stay meaningful; grants nothing here).
    case other(namespace: String)
}
