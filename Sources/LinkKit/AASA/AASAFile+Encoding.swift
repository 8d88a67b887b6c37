extension AASAFile {
    /// The canonical JSON tree of this file: sections, keys and entries in a fixed order, absent values omitted.
    ///
    /// Order: `applinks` (`apps`, `defaults`, `substitutionVariables`, `details`), `webcredentials`, `appclips`,
    /// `activitycontinuation`. A details entry writes `appID` (singular) only in the legacy paths-only form.
    public var json: JSONValue {
        var members: [JSONMember] = []
        if let applinks { members.append(JSONMember(key: "applinks", value: applinks.json)) }
        if let webcredentials { members.append(JSONMember(key: "webcredentials", value: webcredentials.json)) }
        if let appclips { members.append(JSONMember(key: "appclips", value: appclips.json)) }
        if let activitycontinuation { members.append(JSONMember(key: "activitycontinuation", value: activitycontinuation.json)) }
        return .object(members)
    }

    /// The canonical compact JSON text: the same file always gives the same bytes (no `\/`, UTF-8, no whitespace).
    public func encoded() -> String { json.serialized }
}

extension ServiceApps {
    /// The JSON tree: `{"apps": [...]}`.
    public var json: JSONValue { .object(["apps": .array(apps.map(JSONValue.string))]) }
}

extension AppLinks {
    /// The JSON tree of the `applinks` section.
    public var json: JSONValue {
        var members: [JSONMember] = []
        if let apps { members.append(JSONMember(key: "apps", value: .array(apps.map(JSONValue.string)))) }
        if let defaults { members.append(JSONMember(key: "defaults", value: defaults.json)) }
        if !substitutionVariables.isEmpty {
            let variables = substitutionVariables.map { JSONMember(key: $0.name, value: .array($0.values.map(JSONValue.string))) }
            members.append(JSONMember(key: "substitutionVariables", value: .object(variables)))
        }
        members.append(JSONMember(key: "details", value: .array(details.map(\.json))))
        return .object(members)
    }
}

extension AppLinksDetail {
    /// The JSON tree of this entry.
    public var json: JSONValue {
        var members: [JSONMember] = []
        if paths != nil, appIDs.count == 1 { // iOS 12 reads `appID`; iOS 13+ reads either
            members.append(JSONMember(key: "appID", value: .string(appIDs[0])))
        } else {
            members.append(JSONMember(key: "appIDs", value: .array(appIDs.map(JSONValue.string))))
        }
        if let defaults { members.append(JSONMember(key: "defaults", value: defaults.json)) }
        if let components { members.append(JSONMember(key: "components", value: .array(components.map(\.json)))) }
        if let paths { members.append(JSONMember(key: "paths", value: .array(paths.map(JSONValue.string)))) }
        return .object(members)
    }
}

extension AASAComponent {
    /// The JSON tree of this component (`null` for a malformed placeholder).
    public var json: JSONValue {
        if isMalformed { return .null }
        var members: [JSONMember] = []
        if let path { members.append(JSONMember(key: "/", value: .string(path))) }
        switch query {
        case .string(let pattern)?:
            members.append(JSONMember(key: "?", value: .string(pattern)))
        case .items(let items)?:
            members.append(JSONMember(key: "?", value: .object(items.map { JSONMember(key: $0.name, value: .string($0.pattern)) })))
        case nil:
            break
        }
        if let fragment { members.append(JSONMember(key: "#", value: .string(fragment))) }
        if let exclude = self.exclude { members.append(JSONMember(key: "exclude", value: .bool(exclude))) }
        if let caseSensitive = self.caseSensitive { members.append(JSONMember(key: "caseSensitive", value: .bool(caseSensitive))) }
        if let percentEncoded = self.percentEncoded { members.append(JSONMember(key: "percentEncoded", value: .bool(percentEncoded))) }
        if let comment = self.comment { members.append(JSONMember(key: "comment", value: .string(comment))) }
        return .object(members)
    }
}
