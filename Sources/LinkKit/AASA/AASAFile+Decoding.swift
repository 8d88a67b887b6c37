extension AASAFile {
    /// The largest file iOS accepts: "no greater than 128 KB" uncompressed (docs/aasa-semantics.md §8).
    public static let maximumSize = 128 * 1024

    /// Parses and leniently decodes an AASA file.
    /// - Parameter text: the file's JSON text.
    /// - Throws: `LinkKitError` `.malformedJSON` (with position) or `.invalidDocument` when the top level is not an
    /// object.
    public static func decode(_ text: String) throws(LinkKitError) -> AASAFile {
        try AASAFile(json: JSONValue.parse(text))
    }

    /// Decodes an AASA file from a JSON tree, as leniently as iOS: unknown keys and values of the wrong type are
    /// ignored (a `?` dictionary with a non-string value becomes `*`, docs/aasa-semantics.md §5); entries that are not
    /// objects keep their index but never match.
    /// - Parameter json: the parsed file.
    /// - Throws: `LinkKitError` `.invalidDocument` when `json` is not an object.
    public init(json: JSONValue) throws(LinkKitError) {
        guard case .object = json else {
            throw LinkKitError(.invalidDocument, "an AASA file must be a JSON object, not \(json.typeName)", pointer: "")
        }
        self.init(
            applinks: json["applinks"].flatMap(AppLinks.init(lenient:)),
            webcredentials: json["webcredentials"].flatMap(ServiceApps.init(lenient:)),
            appclips: json["appclips"].flatMap(ServiceApps.init(lenient:)),
            activitycontinuation: json["activitycontinuation"].flatMap(ServiceApps.init(lenient:))
        )
    }
}

extension ServiceApps {
    init?(lenient json: JSONValue) {
        guard case .object = json else { return nil }
        self.init(apps: json["apps"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }
}

extension AppLinks {
    init?(lenient json: JSONValue) {
        guard case .object = json else { return nil }
        var details: [AppLinksDetail] = []
        switch json["details"] {
        case .array(let entries)?:
            details = entries.map { AppLinksDetail(lenient: $0, keyedAppID: nil) }
        case .object(let members)?:
            // The iOS 9.0 form: details keyed by app ID (docs/aasa-semantics.md §2, case lg-12).
            details = members.map { AppLinksDetail(lenient: $0.value, keyedAppID: $0.key) }
        default:
            break
        }
        var variables: [SubstitutionVariable] = []
        for member in json["substitutionVariables"]?.objectMembers ?? [] {
            guard let values = member.value.arrayValue else { continue }
            variables.removeAll { $0.name == member.key }
            variables.append(SubstitutionVariable(name: member.key, values: values.compactMap(\.stringValue)))
        }
        self.init(
            apps: json["apps"]?.arrayValue?.compactMap(\.stringValue),
            defaults: json["defaults"].flatMap(AASAComponent.init(lenient:)),
            substitutionVariables: variables,
            details: details
        )
    }
}

extension AppLinksDetail {
    init(lenient json: JSONValue, keyedAppID: String?) {
        guard case .object = json else {
            // Not an object: an inert entry that keeps the indices of the entries after it.
            self.init(appIDs: [])
            return
        }
        var appIDs: [String] = []
        if let keyedAppID { appIDs.append(keyedAppID) }
        for appID in json["appIDs"]?.arrayValue?.compactMap(\.stringValue) ?? [] where !appIDs.contains(appID) {
            appIDs.append(appID)
        }
        if let appID = json["appID"]?.stringValue, !appIDs.contains(appID) { appIDs.append(appID) }
        self.init(
            appIDs: appIDs,
            components: json["components"]?.arrayValue.map { $0.map { AASAComponent(lenient: $0) ?? AASAComponent(isMalformed: true) } },
            paths: json["paths"]?.arrayValue?.compactMap(\.stringValue),
            defaults: json["defaults"].flatMap(AASAComponent.init(lenient:))
        )
    }
}

extension AASAComponent {
    init?(lenient json: JSONValue) {
        guard case .object = json else { return nil }
        var query: AASAQuery?
        switch json["?"] {
        case .string(let pattern)?:
            query = .string(pattern)
        case .object(let members)?:
            var items: [QueryItemPattern] = []
            var voided = false
            for member in members {
                guard let pattern = member.value.stringValue else { voided = true; break }
                items.removeAll { $0.name == member.key }
                items.append(QueryItemPattern(name: member.key, pattern: pattern))
            }
            // swcutil ignores the whole dictionary when one value is not a string (docs/aasa-semantics.md §5, case
            // q-23).
            query = voided ? .string("*") : .items(items)
        default:
            query = nil
        }
        self.init(
            path: json["/"]?.stringValue,
            query: query,
            fragment: json["#"]?.stringValue,
            exclude: json["exclude"]?.boolValue,
            caseSensitive: json["caseSensitive"]?.boolValue,
            percentEncoded: json["percentEncoded"]?.boolValue,
            comment: json["comment"]?.stringValue
        )
    }
}
