extension AssetLinksLinter {
    /// The keys of a `dynamic_app_link_components` entry.
    static let dynamicKeys = ["/", "?", "#", "exclude"]

    /// Lints a statement's `relation_extensions` and the Android 15+ dynamic rules in it (docs/ANDROID.md);
    /// returns whether it declares `dynamic_app_link_components`.
    static func lintExtensions(
        _ extensions: JSONValue, _ pointer: String, _ add: (LintFinding.Severity, String, String, String) -> Void
    ) -> Bool {
        guard let members = extensions.objectMembers else {
            add(.error, "wrongType", pointer, "'relation_extensions' must be an object keyed by relation, not \(extensions.typeName)")
            return false
        }
        var declares = false
        for member in members {
            let relationPointer = JSONPointer.appending(pointer, member.key)
            guard let inner = member.value.objectMembers else {
                add(.error, "wrongType", relationPointer, "a relation extension must be an object, not \(member.value.typeName)")
                continue
            }
            if member.key != AssetLinksFile.handleAllURLs {
                add(
                    .warning, "unknownRelation", relationPointer,
                    "dynamic rules extend '\(AssetLinksFile.handleAllURLs)', not '\(member.key)'")
            }
            for field in inner where field.key != "dynamic_app_link_components" {
                add(
                    .warning, "unknownKey", JSONPointer.appending(relationPointer, field.key),
                    "unknown relation extension key '\(field.key)' is ignored")
            }
            guard let components = member.value["dynamic_app_link_components"] else { continue }
            declares = true
            lintComponents(components, JSONPointer.appending(relationPointer, "dynamic_app_link_components"), add)
        }
        return declares
    }

    private static func lintComponents(
        _ components: JSONValue, _ pointer: String, _ add: (LintFinding.Severity, String, String, String) -> Void
    ) {
        // Android discards every dynamic rule of the statement when one field is malformed or empty.
        let discards = " (Android then discards all dynamic rules and reads only the manifest)"
        guard let list = components.arrayValue else {
            add(
                .error, "wrongType", pointer,
                "dynamic_app_link_components must be a list of rule objects, not \(components.typeName)" + discards)
            return
        }
        if list.isEmpty { add(.error, "noDynamicRules", pointer, "dynamic_app_link_components is empty" + discards) }
        var opens = false
        for (index, component) in list.enumerated() {
            let at = JSONPointer.appending(pointer, index)
            guard let members = component.objectMembers else {
                add(.error, "wrongType", at, "a dynamic rule must be an object, not \(component.typeName)" + discards)
                continue
            }
            if members.isEmpty { add(.error, "emptyRule", at, "a dynamic rule must name '/', '?' or '#'" + discards) }
            for member in members where !dynamicKeys.contains(member.key) {
                let hint = KeySuggestion.closest(to: member.key, among: dynamicKeys).map { " (did you mean '\($0)'?)" } ?? ""
                add(.warning, "unknownKey", JSONPointer.appending(at, member.key), "unknown dynamic rule key '\(member.key)'\(hint)")
            }
            for key in ["/", "#"] {
                guard let value = component[key] else { continue }
                let keyPointer = JSONPointer.appending(at, key)
                guard let text = value.stringValue else {
                    add(.error, "wrongType", keyPointer, "'\(key)' must be a pattern string, not \(value.typeName)" + discards)
                    continue
                }
                if text.isEmpty { add(.error, "emptyPattern", keyPointer, "'\(key)' is empty" + discards) }
                if key == "/", !text.isEmpty, !text.hasPrefix("/"), !text.hasPrefix("*"), !text.hasPrefix("?") {
                    add(.warning, "pathNotAbsolute", keyPointer, "path '\(text)' does not begin with '/': Android paths always do")
                }
                lintWildcards(text, keyPointer, add)
            }
            if let query = component["?"] {
                let queryPointer = JSONPointer.appending(at, "?")
                if let items = query.objectMembers {
                    if items.isEmpty { add(.error, "emptyPattern", queryPointer, "'?' is empty" + discards) }
                    for item in items {
                        let itemPointer = JSONPointer.appending(queryPointer, item.key)
                        guard let text = item.value.stringValue else {
                            add(
                                .error, "wrongType", itemPointer,
                                "query item '\(item.key)' must be a pattern string, not \(item.value.typeName)" + discards)
                            continue
                        }
                        lintWildcards(text, itemPointer, add)
                    }
                } else {
                    add(
                        .error, "wrongType", queryPointer,
                        "'?' must be an object of query item name to pattern, not \(query.typeName)" + discards)
                }
            }
            let exclude: Bool
            if let value = component["exclude"] {
                guard let flag = value.boolValue else {
                    add(
                        .error, "wrongType", JSONPointer.appending(at, "exclude"),
                        "'exclude' must be true or false, not \(value.typeName)" + discards)
                    continue
                }
                exclude = flag
            } else {
                exclude = false
            }
            if exclude {
                add(
                    .warning, "exclusionNeedsAndroid15", at,
                    "Android 14 and older ignore dynamic rules: the URLs this excludes open the app there when the manifest claims them")
            } else {
                opens = true
            }
        }
        if !list.isEmpty, !opens {
            add(
                .warning, "noOpeningRule", pointer,
                "every dynamic rule is an exclusion: on Android 15+ no URL opens the app (a URL no rule matches is excluded)")
        }
    }

    /// `*` before more pattern reads differently on Android: it stops at the first occurrence of the next character.
    private static func lintWildcards(_ text: String, _ pointer: String, _ add: (LintFinding.Severity, String, String, String) -> Void) {
        guard let star = text.firstIndex(of: "*"), let next = text[text.index(after: star)...].first(where: { $0 != "*" }) else { return }
        add(
            .warning, "innerWildcard", pointer,
            "'\(text)': Android's '*' takes characters only up to the first '\(next)' and never retries, so a run that holds '\(next)' does not match (iOS's '*' would)"
        )
    }
}
