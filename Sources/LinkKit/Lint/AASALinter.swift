/// Finds mistakes in an AASA file, each with a JSON pointer and a sentence (docs/aasa-semantics.md §9).
///
/// Lint reads the JSON tree, not the decoded model, because decoding is lenient like iOS and drops exactly the
/// things lint must report (wrong types, unknown keys, duplicates).
public struct AASALinter: Sendable {
    /// The findings so far, in document order.
    private(set) var findings: [LintFinding] = []
    /// Declared substitution variable names.
    var variables: Set<String> = []
    /// The `percentEncoded` in force from the defaults above the component being checked.
    var percentEncodedDefault = true

    /// Lints the text of a file: size, JSON syntax, then everything `lint(json:)` checks.
    /// - Parameter text: the file's text.
    /// - Returns: the findings, errors and warnings in document order.
    public static func lint(text: String) -> [LintFinding] {
        var findings: [LintFinding] = []
        let size = text.utf8.count
        if size > AASAFile.maximumSize {
            findings.append(
                LintFinding(
                    .error, "fileTooLarge", "",
                    "the file is \(size) bytes; iOS rejects files over 128 KB (\(AASAFile.maximumSize) bytes) uncompressed"))
        }
        do {
            return findings + lint(json: try JSONValue.parse(text))
        } catch {
            return findings + [LintFinding(.error, "malformedJSON", "", error.message)]
        }
    }

    /// Lints a parsed file.
    /// - Parameter json: the file's JSON tree.
    /// - Returns: the findings, errors and warnings in document order.
    public static func lint(json: JSONValue) -> [LintFinding] {
        var linter = AASALinter()
        linter.checkRoot(json)
        return linter.findings
    }

    mutating func add(_ severity: LintFinding.Severity, _ code: String, _ pointer: String, _ message: String) {
        findings.append(LintFinding(severity, code, pointer, message))
    }

    private mutating func checkRoot(_ json: JSONValue) {
        guard let members = object(json, "", "the file") else { return }
        checkKeys(members, "", known: ["applinks", "webcredentials", "appclips", "activitycontinuation"], what: "top-level section")
        if json["applinks"] == nil {
            add(.warning, "noAppLinks", "", "there is no 'applinks' section, so no URL on this domain opens an app")
        }
        for member in members {
            let pointer = JSONPointer.appending("", member.key)
            switch member.key {
            case "applinks": checkAppLinks(member.value, pointer)
            case "webcredentials", "appclips", "activitycontinuation": checkServiceApps(member.value, pointer, service: member.key)
            default: break
            }
        }
    }

    private mutating func checkServiceApps(_ json: JSONValue, _ pointer: String, service: String) {
        guard let members = object(json, pointer, "'\(service)'") else { return }
        checkKeys(members, pointer, known: ["apps"], what: "key of '\(service)'")
        guard let apps = json["apps"] else {
            add(.error, "missingKey", pointer, "'\(service)' needs an 'apps' array of app IDs")
            return
        }
        guard let list = array(apps, JSONPointer.appending(pointer, "apps"), "'\(service).apps'") else { return }
        for (index, app) in list.enumerated() {
            checkAppID(app, JSONPointer.appending(JSONPointer.appending(pointer, "apps"), index))
        }
    }

    private mutating func checkAppLinks(_ json: JSONValue, _ pointer: String) {
        guard let members = object(json, pointer, "'applinks'") else { return }
        checkKeys(members, pointer, known: ["apps", "details", "defaults", "substitutionVariables"], what: "key of 'applinks'")
        if let apps = json["apps"] {
            let appsPointer = JSONPointer.appending(pointer, "apps")
            if let list = array(apps, appsPointer, "'applinks.apps'"), !list.isEmpty {
                add(.warning, "legacyAppsNotEmpty", appsPointer, "the legacy 'apps' key must be an empty array; list apps in 'details'")
            }
        }
        if let variables = json["substitutionVariables"] {
            checkSubstitutionVariables(variables, JSONPointer.appending(pointer, "substitutionVariables"))
        }
        if let defaults = json["defaults"] {
            checkComponent(defaults, JSONPointer.appending(pointer, "defaults"), isDefaults: true)
            percentEncodedDefault = defaults["percentEncoded"]?.boolValue ?? true
        }
        let detailsPointer = JSONPointer.appending(pointer, "details")
        switch json["details"] {
        case .array(let entries)?:
            for (index, entry) in entries.enumerated() {
                checkDetail(entry, JSONPointer.appending(detailsPointer, index), keyedAppID: nil)
            }
            checkReachability(json)
        case .object(let members)?:
            add(
                .warning, "legacyDetailsObject", detailsPointer,
                "'details' as an object keyed by app ID is the iOS 9 form; use an array of objects with 'appIDs'")
            for member in members {
                checkAppID(.string(member.key), JSONPointer.appending(detailsPointer, member.key))
                checkDetail(member.value, JSONPointer.appending(detailsPointer, member.key), keyedAppID: member.key)
            }
        case let other?:
            add(.error, "wrongType", detailsPointer, "'details' must be an array of objects, not \(other.typeName)")
        case nil:
            add(.warning, "missingKey", pointer, "'applinks' has no 'details', so no URL opens an app")
        }
    }

    private mutating func checkSubstitutionVariables(_ json: JSONValue, _ pointer: String) {
        guard let members = object(json, pointer, "'substitutionVariables'") else { return }
        for member in members {
            let memberPointer = JSONPointer.appending(pointer, member.key)
            if member.key.contains(where: { "$()".contains($0) }) {
                add(
                    .warning, "variableName", memberPointer,
                    "variable name '\(member.key)' contains '$', '(' or ')', which names may not contain")
            }
            if Self.builtInVariables.contains(member.key) {
                add(.warning, "variableShadowsBuiltIn", memberPointer, "variable '\(member.key)' replaces the built-in $(\(member.key))")
            }
            variables.insert(member.key)
            guard let values = array(member.value, memberPointer, "variable '\(member.key)'") else { continue }
            for (index, value) in values.enumerated() {
                let valuePointer = JSONPointer.appending(memberPointer, index)
                guard let text = value.stringValue else {
                    add(.error, "wrongType", valuePointer, "variable values must be strings, not \(value.typeName)")
                    continue
                }
                if text.contains("$(") {
                    add(
                        .warning, "variableInValue", valuePointer,
                        "variable values may not reference other variables: '$(' is matched literally")
                }
                if text == "UK" {
                    add(.warning, "regionUK", valuePointer, "'UK' is not an ISO region code (the United Kingdom is 'GB')")
                }
            }
        }
    }

    static let builtInVariables: Set<String> = ["alpha", "upper", "lower", "alnum", "digit", "xdigit", "region", "lang"]

    // MARK: helpers

    mutating func object(_ json: JSONValue, _ pointer: String, _ what: String) -> [JSONMember]? {
        guard let members = json.objectMembers else {
            add(.error, "wrongType", pointer, "\(what) must be a JSON object, not \(json.typeName)")
            return nil
        }
        var seen: Set<String> = []
        for member in members where !seen.insert(member.key).inserted {
            add(
                .warning, "duplicateKey", JSONPointer.appending(pointer, member.key),
                "key '\(member.key)' appears more than once; only the last one counts")
        }
        return members
    }

    mutating func array(_ json: JSONValue, _ pointer: String, _ what: String) -> [JSONValue]? {
        guard let elements = json.arrayValue else {
            add(.error, "wrongType", pointer, "\(what) must be an array, not \(json.typeName)")
            return nil
        }
        return elements
    }

    mutating func checkKeys(_ members: [JSONMember], _ pointer: String, known: [String], what: String) {
        for member in members where !known.contains(member.key) {
            var message = "unknown \(what) '\(member.key)' is ignored"
            if let suggestion = KeySuggestion.closest(to: member.key, among: known) { message += "; did you mean '\(suggestion)'?" }
            add(.warning, "unknownKey", JSONPointer.appending(pointer, member.key), message)
        }
    }
}
