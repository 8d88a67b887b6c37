extension AASALinter {
    mutating func checkDetail(_ json: JSONValue, _ pointer: String, keyedAppID: String?) {
        guard let members = object(json, pointer, "a 'details' entry") else { return }
        checkKeys(members, pointer, known: ["appID", "appIDs", "components", "paths", "defaults"], what: "key of a 'details' entry")
        if json["appID"] != nil, json["appIDs"] != nil {
            add(.warning, "appIDAndAppIDs", pointer, "the entry has both 'appID' and 'appIDs'; use 'appIDs' only")
        }
        if let appID = json["appID"] { checkAppID(appID, JSONPointer.appending(pointer, "appID")) }
        if let appIDs = json["appIDs"], let list = array(appIDs, JSONPointer.appending(pointer, "appIDs"), "'appIDs'") {
            if list.isEmpty {
                add(.warning, "noApps", JSONPointer.appending(pointer, "appIDs"), "'appIDs' is empty: this entry applies to no app")
            }
            for (index, appID) in list.enumerated() {
                checkAppID(appID, JSONPointer.appending(JSONPointer.appending(pointer, "appIDs"), index))
            }
        }
        if keyedAppID == nil, json["appID"] == nil, json["appIDs"] == nil {
            add(.error, "noApps", pointer, "the entry names no app: add 'appIDs'")
        }
        if let defaults = json["defaults"] { checkComponent(defaults, JSONPointer.appending(pointer, "defaults"), isDefaults: true) }
        let domainPercentEncoded = percentEncodedDefault
        defer { percentEncodedDefault = domainPercentEncoded }
        if let flag = json["defaults"]?["percentEncoded"]?.boolValue { percentEncodedDefault = flag }
        if let components = json["components"] {
            let componentsPointer = JSONPointer.appending(pointer, "components")
            if let list = array(components, componentsPointer, "'components'") {
                for (index, component) in list.enumerated() {
                    checkComponent(component, JSONPointer.appending(componentsPointer, index), isDefaults: false)
                }
            }
            if json["paths"] != nil {
                add(
                    .warning, "pathsWithComponents", JSONPointer.appending(pointer, "paths"),
                    "'paths' is ignored by iOS 13+ because the entry also has 'components'; do not mix the formats")
            }
        }
        if let paths = json["paths"] {
            let pathsPointer = JSONPointer.appending(pointer, "paths")
            guard let list = array(paths, pathsPointer, "'paths'") else { return }
            for (index, path) in list.enumerated() {
                let pathPointer = JSONPointer.appending(pathsPointer, index)
                guard let text = path.stringValue else {
                    add(.error, "wrongType", pathPointer, "paths must be strings, not \(path.typeName)")
                    continue
                }
                if text.hasPrefix("NOT"), !text.hasPrefix("NOT ") {
                    add(
                        .warning, "notWithoutSpace", pathPointer,
                        "'\(text)' starts with 'NOT' but not 'NOT ' (with a space), so it is a path pattern, not an exclusion")
                } else if text.lowercased().hasPrefix("not "), !text.hasPrefix("NOT ") {
                    add(
                        .warning, "notWithoutSpace", pathPointer,
                        "'\(text)': the exclusion prefix is upper-case 'NOT '; this is a path pattern")
                }
                checkPattern(text.hasPrefix("NOT ") ? String(text.dropFirst(4)) : text, pathPointer, isPath: true)
            }
        }
    }

    mutating func checkComponent(_ json: JSONValue, _ pointer: String, isDefaults: Bool) {
        guard let members = object(json, pointer, isDefaults ? "'defaults'" : "a component") else { return }
        let known = ["/", "?", "#", "exclude", "caseSensitive", "percentEncoded", "comment"]
        let encoded = isDefaults ? nil : (json["percentEncoded"]?.boolValue ?? percentEncodedDefault)
        checkKeys(members, pointer, known: known, what: isDefaults ? "key of 'defaults'" : "component key")
        for member in members {
            let memberPointer = JSONPointer.appending(pointer, member.key)
            switch member.key {
            case "/", "#":
                if let text = member.value.stringValue {
                    checkPattern(text, memberPointer, isPath: member.key == "/", encoded: encoded)
                } else {
                    add(
                        .error, "wrongType", memberPointer,
                        "'\(member.key)' must be a pattern string, not \(member.value.typeName); iOS ignores it")
                }
            case "?":
                switch member.value {
                case .string(let text):
                    checkPattern(text, memberPointer, isPath: false, encoded: encoded)
                case .object(let items):
                    _ = object(member.value, memberPointer, "'?'")
                    for item in items {
                        let itemPointer = JSONPointer.appending(memberPointer, item.key)
                        if let text = item.value.stringValue {
                            checkPattern(text, itemPointer, isPath: false, encoded: encoded)
                        } else {
                            add(
                                .error, "queryValueNotString", itemPointer,
                                "query item '\(item.key)' must have a string pattern, not \(item.value.typeName); iOS then ignores the whole '?' dictionary and matches any query"
                            )
                        }
                    }
                default:
                    add(
                        .error, "wrongType", memberPointer,
                        "'?' must be a pattern string or an object of query-item patterns, not \(member.value.typeName)")
                }
            case "exclude", "caseSensitive", "percentEncoded":
                if member.value.boolValue == nil {
                    add(
                        .error, "wrongType", memberPointer,
                        "'\(member.key)' must be true or false, not \(member.value.typeName); iOS ignores it")
                }
            case "comment":
                if member.value.stringValue == nil { add(.warning, "wrongType", memberPointer, "'comment' should be a string") }
            default:
                break
            }
        }
    }

    /// Variable references and common pattern mistakes.
    mutating func checkPattern(_ text: String, _ pointer: String, isPath: Bool, encoded: Bool? = nil) {
        if encoded == true, text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value >= 0x7F }) {
            add(
                .warning, "unencodedPattern", pointer,
                "'\(text)' has spaces or non-ASCII characters, but URLs are compared percent-encoded here, so they never match; percent-encode the pattern or set \"percentEncoded\": false"
            )
        }
        var rest = Substring(text)
        while let start = rest.range(of: "$(") {
            guard let close = rest[start.upperBound...].firstIndex(of: ")") else {
                add(.error, "unterminatedVariable", pointer, "'$(' in '\(text)' has no closing ')': the pattern never matches")
                return
            }
            let name = String(rest[start.upperBound..<close])
            if !variables.contains(name), !Self.builtInVariables.contains(name) {
                var message = "$(\(name)) is not defined in 'substitutionVariables' nor built in: the pattern never matches"
                if let same = (variables.union(Self.builtInVariables)).first(where: { $0.lowercased() == name.lowercased() }) {
                    message += "; variable names are case-sensitive, did you mean $(\(same))?"
                }
                add(.warning, "undefinedVariable", pointer, message)
            }
            rest = rest[rest.index(after: close)...]
        }
        if isPath, text.contains("#") {
            add(.warning, "hashInPath", pointer, "a URL path never contains '#': put fragment routes under the '#' key")
        }
        if isPath, text.split(separator: "/").contains("UK") {
            add(.warning, "regionUK", pointer, "'UK' is not an ISO region code (the United Kingdom is 'GB'); $(region) never matches it")
        }
    }

    mutating func checkAppID(_ json: JSONValue, _ pointer: String) {
        guard let text = json.stringValue else {
            add(.error, "wrongType", pointer, "an app ID must be a string, not \(json.typeName)")
            return
        }
        guard let dot = text.firstIndex(of: "."), dot != text.startIndex, text.index(after: dot) != text.endIndex else {
            add(.error, "appID", pointer, "'\(text)' is not an app ID: it must be <team ID>.<bundle ID>, like ABCDE12345.com.example.app")
            return
        }
        let prefix = String(text[..<dot])
        if !TeamID.isPlausiblePrefix(prefix) {
            add(
                .error, "teamID", pointer,
                "'\(prefix)' in '\(text)' is not a team ID: use only letters and digits (10 upper-case, like ABCDE12345)")
        } else if (try? TeamID(prefix)) == nil {
            add(
                .warning, "teamID", pointer,
                "team ID '\(prefix)' in '\(text)' is not 10 upper-case letters or digits, as Apple team IDs are")
        }
        if let problem = BundleID.problem(String(text[text.index(after: dot)...])) {
            add(.error, "bundleID", pointer, problem)
        }
    }
}
