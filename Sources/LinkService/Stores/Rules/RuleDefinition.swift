import Foundation
import LinkKit

/// One rule as a client writes it:
/// `{"apps": [id…], "path": "/widget/{id}", "query": {"tab": "{tab}"}, "fragment": "…", "exclude": false,
///   "caseSensitive": true, "percentEncoded": true, "comment": "…",
///   "destination": {"type": "widgetDetail", "params": {"id": "{id}", "tab": "info"}},
///   "click": {"behavior": "landing", "title": "…"}}` (`RuleClick`).
///
/// `path`, `fragment` and query-item values are templates when they contain `{…}` captures and raw AASA
/// patterns otherwise. A destination parameter bound to `"{name}"` takes that capture; any other value is a
/// constant; an unbound parameter takes the capture of the same name.
struct RuleDefinition: Sendable {
    /// The id to keep when a client sends back a rule it read (so analytics keep following it).
    var id: UUID?
    var apps: [UUID]
    var path: RulePattern?
    var query: RuleQuery?
    var fragment: RulePattern?
    var exclude: Bool?
    var caseSensitive: Bool?
    var percentEncoded: Bool?
    var comment: String?
    var destination: DestinationBinding?
    /// What the rule's clicks get, when it overrides the domain and the destination type.
    var click: RuleClick?

    /// A rule for `apps` that constrains nothing yet.
    init(apps: [UUID]) {
        self.apps = apps
    }

    /// Reads one rule object at `pointer`, recording every problem in `errors`.
    /// - Parameters:
    ///   - allowIdentity: accept `id` (and ignore `position`), as in a list read back from `GET`.
    ///   - storedApps: the apps of a stored rule (from `rule_apps`), which the object then does not carry.
    init(_ value: JSONValue, at pointer: String, errors: FieldErrors, allowIdentity: Bool, storedApps: [UUID]? = nil) {
        var body = JSONObjectReader(value, at: pointer, errors: errors)
        if allowIdentity {
            if let text = body.string("id") {
                id = UUID(uuidString: text)
                if id == nil { errors.add(body.at("id"), "id must be a rule id (a UUID) or left out.") }
            }
            _ = body.value("position")
            _ = body.value("createdAt")
            _ = body.value("updatedAt")
        }
        apps = storedApps ?? []
        if storedApps == nil {
            for (index, text) in (body.strings("apps", required: true, maxCount: 50) ?? []).enumerated() {
                guard let id = UUID(uuidString: text) else {
                    errors.add(JSONPointer.appending(body.at("apps"), index), "'\(text)' is not an app id.")
                    continue
                }
                apps.append(id)
            }
            if body.has("apps"), apps.isEmpty, errors.isEmpty { errors.add(body.at("apps"), "A rule applies to at least one app.") }
        }
        path = Self.pattern(body.string("path", limit: .pattern), at: body.at("path"), errors)
        fragment = Self.pattern(body.string("fragment", limit: .pattern), at: body.at("fragment"), errors)
        query = Self.query(body.value("query"), at: body.at("query"), errors)
        exclude = body.bool("exclude")
        caseSensitive = body.bool("caseSensitive")
        percentEncoded = body.bool("percentEncoded")
        comment = body.string("comment", limit: .comment)
        if let value = body.value("destination"), value != .null {
            destination = Self.destination(value, at: body.at("destination"), errors)
        }
        if let value = body.value("click") { click = RuleClick(value, at: body.at("click"), errors: errors, stored: storedApps != nil) }
        if exclude == true, destination != nil {
            errors.add(body.at("destination"), "An exclusion opens no app, so it cannot have a destination.")
        }
        body.finish()
    }

    /// The LinkKit rule, with `id` as its identity.
    /// - Parameter appIDs: `apps` as LinkKit names them (lower-case), when the caller has them already (the catalog
    ///   shares one array among the rules of a domain that name the same apps).
    func rule(id: UUID, appIDs: [String]? = nil) -> LinkRule {
        rule(id: id.canonicalText, appIDs: appIDs)
    }

    /// The LinkKit rule, with `id` as written.
    func rule(id: String, appIDs: [String]? = nil) -> LinkRule {
        LinkRule(
            id: id, apps: appIDs ?? apps.map { $0.canonicalText }, path: path, query: query,
            fragment: fragment, exclude: exclude, caseSensitive: caseSensitive, percentEncoded: percentEncoded, comment: comment,
            destination: destination
        )
    }

    /// The stored definition (everything but identity, position and apps, which have columns and a table).
    var json: JSONValue {
        var members: [JSONMember] = []
        if let path { members.append(JSONMember(key: "path", value: .string(path.text))) }
        if let query { members.append(JSONMember(key: "query", value: Self.json(query))) }
        if let fragment { members.append(JSONMember(key: "fragment", value: .string(fragment.text))) }
        if let exclude { members.append(JSONMember(key: "exclude", value: .bool(exclude))) }
        if let caseSensitive { members.append(JSONMember(key: "caseSensitive", value: .bool(caseSensitive))) }
        if let percentEncoded { members.append(JSONMember(key: "percentEncoded", value: .bool(percentEncoded))) }
        if let comment { members.append(JSONMember(key: "comment", value: .string(comment))) }
        if let destination { members.append(JSONMember(key: "destination", value: Self.json(destination))) }
        if let click { members.append(JSONMember(key: "click", value: click.json)) }
        return .object(members)
    }

    private static func pattern(_ text: String?, at pointer: @autoclosure () -> String, _ errors: FieldErrors) -> RulePattern? {
        guard let text else { return nil }
        do { return try RulePattern(text) } catch { errors.add(pointer(), error.message); return nil }
    }

    private static func query(_ value: JSONValue?, at pointer: @autoclosure () -> String, _ errors: FieldErrors) -> RuleQuery? {
        switch value {
        case nil, .null?: return nil
        case .string(let pattern)?:
            guard let pattern = JSONObjectReader.within(.pattern, pattern, at: pointer(), named: "The query pattern", errors) else {
                return nil
            }
            if pattern.contains("{") {
                errors.add(pointer(), "A query string pattern cannot capture; use an object of query items, e.g. {\"ref\": \"{ref}\"}.")
            }
            return .string(pattern)
        case .object(let members)?:
            var items: [RuleQueryItem] = []
            var seen: Set<String> = []
            for member in members {
                func at() -> String { JSONPointer.appending(pointer(), member.key) }
                guard !member.key.isEmpty, seen.insert(member.key).inserted else {
                    errors.add(at(), "Query item names must be non-empty and distinct.")
                    continue
                }
                guard JSONObjectReader.within(.memberName, member.key, at: at(), named: "The query item name", errors) != nil else {
                    continue
                }
                guard case .string(let text) = member.value else {
                    // iOS ignores the whole dictionary when a value is not a string (docs/aasa-semantics.md §5).
                    errors.add(
                        at(),
                        "A query item pattern must be a string, not \(member.value.typeName): iOS would ignore the whole query dictionary.")
                    continue
                }
                guard let text = JSONObjectReader.within(.pattern, text, at: at(), named: "The query item pattern", errors) else {
                    continue
                }
                if let pattern = Self.pattern(text, at: at(), errors) { items.append(RuleQueryItem(name: member.key, pattern: pattern)) }
            }
            return .items(items)
        case let other?:
            errors.add(pointer(), "query must be a string pattern or an object of query items, not \(other.typeName).")
            return nil
        }
    }

    private static func destination(_ value: JSONValue, at pointer: String, _ errors: FieldErrors) -> DestinationBinding? {
        var body = JSONObjectReader(value, at: pointer, errors: errors)
        let type = Validators.identifier(body.string("type", required: true), at: body.at("type"), errors)
        var params: [String: DestinationBinding.Source] = [:]
        if var map = body.object("params") {
            for name in map.keys() {
                let at = map.at(name)
                switch map.value(name) {
                case .string(let text)?:
                    if let text = JSONObjectReader.within(.standard, text, at: at, named: "The parameter's value", errors) {
                        params[name] = source(boundTo: text)
                    }
                case .number(let text)?: params[name] = .constant(text)
                case .bool(let flag)?: params[name] = .constant(flag ? "true" : "false")
                case let other?:
                    errors.add(at, "A parameter is bound to \"{capture}\" or a constant string, number or boolean, not \(other.typeName).")
                case nil: break
                }
            }
            map.finish()
        }
        body.finish()
        return type.map { DestinationBinding(type: $0, params: params) }
    }

    /// A parameter bound to `text`: the capture `"{name}"` names, or the constant text.
    static func source(boundTo text: String) -> DestinationBinding.Source {
        text.hasPrefix("{") && text.hasSuffix("}") && text.count > 2 ? .capture(String(text.dropFirst().dropLast())) : .constant(text)
    }

    static func json(_ query: RuleQuery) -> JSONValue {
        switch query {
        case .string(let pattern): .string(pattern)
        case .items(let items): .object(items.map { JSONMember(key: $0.name, value: .string($0.pattern.text)) })
        }
    }

    static func json(_ binding: DestinationBinding) -> JSONValue {
        var members = [JSONMember(key: "type", value: .string(binding.type))]
        if !binding.params.isEmpty {
            members.append(
                JSONMember(
                    key: "params",
                    value: .object(
                        binding.params.keys.sorted().map { name in
                            switch binding.params[name]! {
                            case .capture(let capture): JSONMember(key: name, value: .string("{\(capture)}"))
                            case .constant(let text): JSONMember(key: name, value: .string(text))
                            }
                        })))
        }
        return .object(members)
    }
}
