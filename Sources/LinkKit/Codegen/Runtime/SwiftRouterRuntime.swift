// MARK: - The interpreter of `LinkRouter.table` (the same in every generated file; docs/CODEGEN.md in linkd)

/// The URLs that open a destination: the universal link, and the custom-scheme URL when the app has a scheme.
public struct LinkURLs: Hashable, Sendable {
    public let universal: URL
    public let scheme: URL?
}

/// Why `LinkRouter.buildResult` gives no URL: the parameter at fault, with the reason in `POST /v1/links/build`'s words
/// for a value the server refuses; or no parameter when no rule of the primary domain prints the destination and
/// routes back to it.
/// What the app does with a URL (`LinkRouter.decide`): open a destination decided on the phone, or ask linkd's
/// resolve, because the URL is a targeted link whose destination depends on the visitor.
public enum LinkRoute: Hashable, Sendable {
    case open(LinkDestination)
    /// A targeted link: resolve it with the visitor's context (`LinkResolveClient`), never from the rules alone.
    case needsResolve(url: String)
}

public struct LinkBuildError: Error, Equatable, Sendable {
    public let param: String?
    public let detail: String
}

extension LinkRouter {
    /// A destination's URLs, nil when it has none (`buildResult(_:)` says why).
    public static func build(_ destination: LinkDestination) -> LinkURLs? {
        try? buildResult(destination).get()
    }

    /// A destination's URLs: the first rule of the primary domain bound to its type that prints its parameters
    /// and routes back to it (a URL an earlier rule or exclusion would shadow is never returned); or why there is none.
    public static func buildResult(_ destination: LinkDestination) -> Result<LinkURLs, LinkBuildError> {
        guard let type = destination.type, let spec = table.specs.first(where: { $0.type == type }) else {
            return .failure(LinkBuildError(param: nil, detail: "An invalid destination has no link."))
        }
        let values = destination.values
        // The values as the server checks them (`DestinationType.values`), in the type's order.
        for param in spec.params {
            guard let value = values.first(where: { $0.0 == param.name })?.1 else { continue }
            guard !value.text.isEmpty else {
                return .failure(LinkBuildError(param: param.name, detail: "The parameter '\(param.name)' cannot be empty: resolve reads an empty value as absent."))
            }
            if case .failure(let reason) = param.convert(value.text) {
                return .failure(LinkBuildError(param: param.name, detail: "The parameter '\(param.name)' is invalid: \(reason.text)."))
            }
        }
        let domains = table.schemeDomain >= 0 ? [table.schemeDomain] : Array(table.domains.indices)
        for index in domains where table.domains[index].app >= 0 {
            let domain = table.domains[index]
            let host = domain.host.hasPrefix("*.") ? String(domain.host.dropFirst(2)) : domain.host
            for group in [domain.groups[domain.appGroups[domain.app]]] {
                var position = 1
                while position < group.count {
                    defer { position += 2 }
                    guard let capture = table.rules[group[position]].capture, capture.type == type,
                          let tail = printed(capture, values) else { continue }
                    let universal = "https://" + host + tail
                    guard route(universal) == destination, let universalURL = URL(string: universal) else { continue }
                    var scheme: URL?
                    if let name = table.scheme, index == table.schemeDomain {
                        let url = name + "://" + (tail.hasPrefix("/") ? String(tail.dropFirst()) : tail)
                        scheme = route(url) == destination ? URL(string: url) : nil
                    }
                    return .success(LinkURLs(universal: universalURL, scheme: scheme))
                }
            }
        }
        return .failure(LinkBuildError(param: nil, detail: "No rule of the primary domain bound to '\(type)' prints these parameters and routes back to them."))
    }

    /// Path, query and fragment printed from the captures a binding takes, or nil when a template cannot print them.
    private static func printed(_ capture: Capture, _ values: [(String, Value)]) -> String? {
        var captures: [String: String] = [:]
        for (name, value) in values {
            let param = capture.params.first { $0.name == name }
            if let param, param.constant { continue }
            captures[param?.value ?? name] = value.text
        }
        func render(_ parts: [TemplatePart]?, keepEmpty: Bool) -> String? {
            guard let parts else { return keepEmpty ? "" : nil }
            var out = ""
            for part in parts {
                switch part {
                case .literal(let text), .printed(let text): out += text
                case .rest(let name): out += encode(captures[name] ?? "", keepingSlashes: true)
                case .optional(let name): out += encode(captures[name] ?? "", keepingSlashes: false)
                case .capture(let name): guard let value = captures[name], !value.isEmpty else { return nil }; out += encode(value, keepingSlashes: false)
                }
            }
            return out
        }
        // A raw path with wildcards (nil) names no one URL.
        guard var path = render(capture.path, keepEmpty: false) else { return nil }
        if !path.hasPrefix("/") { path = "/" + path }
        // As the server's builder: an item or fragment whose captures are all left out is left out (an absent item
        // reads as empty), an item printing empty from an optional capture too; a raw pattern with wildcards prints
        // nothing, and the route check decides.
        func names(_ parts: [TemplatePart]) -> [String] { parts.compactMap(\.captured) }
        var items: [String] = []
        for item in capture.items {
            guard let tokens = item.template else { continue }
            let captured = names(tokens)
            if !captured.isEmpty, captured.allSatisfy({ captures[$0] == nil }) { continue }
            guard let value = render(tokens, keepEmpty: false) else { return nil }
            if value.isEmpty, !captured.isEmpty { continue }
            items.append(encode(item.name, keepingSlashes: false) + "=" + value)
        }
        if !items.isEmpty { path += "?" + items.joined(separator: "&") }
        if let tokens = capture.fragment {
            let captured = names(tokens)
            if captured.isEmpty || captured.contains(where: { captures[$0] != nil }) {
                guard let fragment = render(tokens, keepEmpty: false) else { return nil }
                path += "#" + fragment
            } else if let fragment = render(tokens, keepEmpty: false), !fragment.isEmpty {
                path += "#" + fragment
            }
        }
        return path
    }

    private static func encode(_ text: String, keepingSlashes: Bool) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case 0x61...0x7A, 0x41...0x5A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E: out.append(byte)
            case 0x2F where keepingSlashes: out.append(byte)
            default: out += [0x25, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// What `url` opens in this app (a universal link or a custom-scheme URL, as `onOpenURL` or a scene hands it
    /// over): `route(_:)` of its text.
    public static func route(_ url: URL) -> LinkDestination? { route(url.absoluteString) }

    /// What `url` opens in this app: resolve's decision for it, nil when the app does not open it (another app
    /// or the browser does), its rule names no destination, or it is a targeted link (`decide(_:)` says so: only
    /// linkd's resolve, with the visitor's context, can answer it).
    public static func route(_ url: String) -> LinkDestination? {
        if case .open(let destination)? = decide(url) { return destination }
        return nil
    }

    /// What the app does with `url` (a `URL`): `decide(_:)` of its text.
    public static func decide(_ url: URL) -> LinkRoute? { decide(url.absoluteString) }

    /// What the app does with `url`: open a destination decided here, as resolve decides it; or, for a targeted
    /// link (its destination depends on the visitor: targets or an experiment), ask linkd (`needsResolve`, which
    /// `LinkResolveClient.resolve` does with the visitor's context). nil when the app opens nothing.
    public static func decide(_ url: String) -> LinkRoute? {
        guard let parsed = URLParts(url) else { return nil }
        let compiled = Compiled.shared
        let domainIndex: Int
        var onlySelf = false
        if let scheme = table.scheme, parsed.scheme == scheme, table.schemeDomain >= 0 {
            domainIndex = table.schemeDomain
            onlySelf = true
        } else {
            guard parsed.scheme == "https", !parsed.hasUserInfo, let governing = governing(parsed.host) else { return nil }
            domainIndex = governing
        }
        let domain = compiled.domains[domainIndex]
        guard domain.app >= 0 else { return nil }
        // A stored link's slug is its path after `/`, as linkd reads it.
        let targeted = table.domains[domainIndex].targeted
        if !targeted.isEmpty, parsed.path.first == 0x2F, targeted.contains(String(decoding: parsed.path.dropFirst(), as: UTF8.self)) {
            return .needsResolve(url: url)
        }
        var subject = Subject(path: parsed.path, query: parsed.query ?? [], fragment: parsed.fragment ?? [])
        // An Android app's domains decide as Android does (only an Android app's file carries that matcher).
        let android = domain.android > 0 ? androidMatcher(path: parsed.path, query: parsed.query ?? [], fragment: parsed.fragment ?? []) : nil
        func first(_ group: Int) -> (entry: Int, rule: Int)? {
            if let android { return android(domain.lists[group], domain.android == 2) }
            return domain.first(group, &subject, compiled.rules)
        }
        // The app opens the URL when its own first matching entry is a positive one and no other app's positive one
        // is earlier (on the same entry, the app listed first wins), as `RuleMatcher.decidingApp` decides in linkd.
        // Its own is found first: without it, no other app's matters.
        let own = domain.groupOfApp[domain.app]
        guard let found = first(own), !compiled.rules[found.rule].exclude else { return nil }
        if !onlySelf {
            // An app listed earlier in the same entries decides alike, and wins the tie.
            if domain.firstApp[own] < domain.app { return nil }
            for group in domain.lists.indices where group != own {
                guard let other = first(group), !compiled.rules[other.rule].exclude else { continue }
                if other.entry < found.entry || (other.entry == found.entry && domain.firstApp[group] < domain.app) { return nil }
            }
        }
        return compiled.captures[found.rule]?.destination(&subject).map(LinkRoute.open)
    }

    /// The domain governing `host`: exact, the wildcard served there, else the longest wildcard above it.
    private static func governing(_ host: String) -> Int? {
        let hosts = Compiled.shared.hosts
        if let exact = hosts[host] ?? hosts["*." + host] { return exact }
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            if let wildcard = hosts["*." + rest] { return wildcard }
        }
        return nil
    }
}

// MARK: - Table records

extension LinkRouter {
    /// A converted parameter value.
    enum Value: Equatable, Sendable {
        case int(Int64), string(String), bool(Bool), uuid(String)

        var text: String {
            switch self {
            case .int(let number): String(number)
            case .string(let text), .uuid(let text): text
            case .bool(let flag): flag ? "true" : "false"
            }
        }

        var json: String {
            switch self {
            case .int, .bool: text
            case .string(let text), .uuid(let text): JSON.quoted(text)
            }
        }

        /// The value as the parameter's Swift type: nil for another kind of value, or for an `int` this device's
        /// `Int` cannot hold (32 bits on watchOS): `LinkDestination.make` answers the error destination then.
        var exactInt: Int? { if case .int(let number) = self { Int(exactly: number) } else { nil } }
        var bool: Bool? { if case .bool(let flag) = self { flag } else { nil } }
        var uuid: UUID? { if case .uuid(let text) = self { UUID(uuidString: text) } else { nil } }
    }

    /// The table as `LinkRouter.table` writes it, every field by its name: the scheme, the domain its URLs resolve
    /// on (`schemeDomain`, a host), the destination specs and the domains, each with its rules inline. Read into
    /// numbered rules once: `rules` holds every domain's, and each domain's groups number them.
    struct Table: Sendable {
        let scheme: String?
        /// The index in `domains` of the domain a scheme URL resolves on; -1 for none.
        let schemeDomain: Int
        let specs: [Spec]
        let domains: [Domain]
        let rules: [Rule]

        init(scheme: String? = nil, schemeDomain: String? = nil, specs: [Spec] = [], domains: [Domain] = []) {
            var rules: [Rule] = []
            var numbered: [Domain] = []
            for domain in domains {
                numbered.append(domain.numbered(from: rules.count))
                rules += domain.rules
            }
            (self.scheme, self.specs, self.domains, self.rules) = (scheme, specs, numbered, rules)
            self.schemeDomain = domains.firstIndex { $0.host == schemeDomain } ?? -1
        }
    }

    struct Spec: Sendable {
        let type: String
        let requiresSignIn: Bool
        let params: [ParamSpec]
        init(type: String, requiresSignIn: Bool = false, params: [ParamSpec] = []) { (self.type, self.requiresSignIn, self.params) = (type, requiresSignIn, params) }
    }

    struct Reason: Error { let text: String }

    struct ParamSpec: Sendable {
        let name: String
        let kind: String
        let optional: Bool
        let min: String?
        let max: String?
        let values: [String]
        init(name: String, kind: String, optional: Bool = false, min: String? = nil, max: String? = nil, values: [String] = []) {
            (self.name, self.kind, self.optional, self.min, self.max, self.values) = (name, kind, optional, min, max, values)
        }

        /// resolve's conversion of a captured (decoded) value to the declared type.
        func convert(_ text: String) -> Result<Value, Reason> {
            switch kind {
            case "string":
                let length = text.unicodeScalars.count
                if let min = min.flatMap({ Int($0) }), length < min { return .failure(Reason(text: "is shorter than \(min) characters")) }
                if let max = max.flatMap({ Int($0) }), length > max { return .failure(Reason(text: "is longer than \(max) characters")) }
                return .success(.string(text))
            case "int":
                guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2D }), let value = Int64(text) else {
                    return .failure(Reason(text: "'\(Self.excerpt(text))' is not an integer"))
                }
                if let min = min.flatMap({ Int64($0) }), value < min { return .failure(Reason(text: "\(value) is less than the minimum \(min)")) }
                if let max = max.flatMap({ Int64($0) }), value > max { return .failure(Reason(text: "\(value) is greater than the maximum \(max)")) }
                return .success(.int(value))
            case "uuid":
                let bytes = Array(text.utf8)
                guard bytes.count == 36 else { return .failure(Reason(text: "'\(Self.excerpt(text))' is not a UUID")) }
                var out: [UInt8] = []
                for (index, byte) in bytes.enumerated() {
                    if [8, 13, 18, 23].contains(index) {
                        guard byte == 0x2D else { return .failure(Reason(text: "'\(Self.excerpt(text))' is not a UUID")) }
                        out.append(byte)
                    } else if (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) {
                        out.append(byte)
                    } else if (0x41...0x46).contains(byte) {
                        out.append(byte + 32)
                    } else {
                        return .failure(Reason(text: "'\(Self.excerpt(text))' is not a UUID"))
                    }
                }
                return .success(.uuid(String(decoding: out, as: UTF8.self)))
            case "bool":
                switch text.lowercased() {
                case "true", "1", "yes": return .success(.bool(true))
                case "false", "0", "no": return .success(.bool(false))
                default: return .failure(Reason(text: "'\(Self.excerpt(text))' is not a boolean (true/false, 1/0, yes/no)"))
                }
            default:
                guard values.contains(text) else { return .failure(Reason(text: "'\(Self.excerpt(text))' is not one of \(values.joined(separator: ", "))")) }
                return .success(.string(text))
            }
        }

        static func excerpt(_ text: String) -> String {
            text.unicodeScalars.count <= 64 ? text : String(String.UnicodeScalarView(text.unicodeScalars.prefix(61))) + "..."
        }
    }

    /// Whose semantics decide a domain's URLs: iOS's (the AASA file's entries), Android's manifest alone, or the
    /// manifest and the dynamic rules.
    enum Decides: Sendable { case ios, android, androidDynamicRules }

    /// A run of consecutive rules for the same apps (an AASA `details` entry): earlier entries decide first.
    struct Entry: Sendable {
        let apps: [String]
        let rules: [Rule]
        init(apps: [String], rules: [Rule]) { (self.apps, self.rules) = (apps, rules) }
    }

    struct Domain: Sendable {
        let host: String
        /// Per listed app, its rules as entry and rule numbers alternately, in entry order.
        private(set) var groups: [[Int]]
        /// The group of each listed app.
        let appGroups: [Int]
        /// This app's index among the listed apps; -1 when the domain names it not.
        let app: Int
        /// Whose semantics decide: 0 iOS's, 1 Android's manifest, 2 Android's manifest and dynamic rules.
        let android: Int
        /// The domain's rules in entry order, numbered from 0 until `Table` numbers every domain's together.
        let rules: [Rule]
        /// The slugs of the domain's targeted links: only resolve answers them.
        let targeted: Set<String>

        init(host: String, decides: Decides, apps: [String], app: String? = nil, entries: [Entry] = [], targeted: [String] = []) {
            self.targeted = Set(targeted)
            var groups = [[Int]](repeating: [], count: apps.count)
            var rules: [Rule] = []
            for entry in entries {
                for rule in entry.rules {
                    for name in entry.apps { if let index = apps.firstIndex(of: name) { groups[index] += [rules.count, rules.count] } }
                    rules.append(rule)
                }
            }
            (self.host, self.groups, self.appGroups, self.rules) = (host, groups, Array(apps.indices), rules)
            self.app = app.flatMap { apps.firstIndex(of: $0) } ?? -1
            android = switch decides {
            case .ios: 0
            case .android: 1
            case .androidDynamicRules: 2
            }
        }

        /// The domain with its rule numbers counted from `first`.
        func numbered(from first: Int) -> Domain {
            var domain = self
            domain.groups = groups.map { $0.map { $0 + first } }
            return domain
        }
    }

    /// One element of a compiled pattern: a literal, `?` (one character), `*`, a pattern that never matches, a
    /// character class (`anyCase`: either case), or a substitution variable's alternatives.
    indirect enum GlobToken: Sendable {
        case literal(String), one, star, never, characterClass(String, anyCase: Bool = false), alternatives([[GlobToken]])
    }

    struct Rule: Sendable {
        /// The form compared: 0 percent-encoded and case-sensitive, 1 encoded and either case, 2 and 3 decoded.
        let slot: Int
        let exclude: Bool
        let never: Bool
        let path: [GlobToken]?
        let parent: [GlobToken]?
        let queryString: [GlobToken]?
        let items: [Item]
        let fragment: [GlobToken]?
        let capture: Capture?
        /// Android: the manifest's path attributes and the dynamic rules (empty for an iOS app).
        let manifest: [ManifestPath]
        let dynamic: [Dynamic]
        init(path: [GlobToken]? = nil, parent: [GlobToken]? = nil, query: [GlobToken]? = nil, items: [Item] = [], fragment: [GlobToken]? = nil,
             caseSensitive: Bool = true, percentEncoded: Bool = true, exclude: Bool = false, never: Bool = false, capture: Capture? = nil,
             manifest: [ManifestPath] = [], dynamic: [Dynamic] = []) {
            slot = (percentEncoded ? 0 : 2) + (caseSensitive ? 0 : 1)
            (self.exclude, self.never, self.path, self.parent) = (exclude, never, path, parent)
            (self.queryString, self.items, self.fragment, self.capture, self.manifest, self.dynamic) = (query, items, fragment, capture, manifest, dynamic)
        }
    }

    struct Item: Sendable {
        let name: String
        let pattern: [GlobToken]
        init(name: String, pattern: [GlobToken]) { (self.name, self.pattern) = (name, pattern) }
    }

    /// One element of a template: a literal, a capture of one segment, an optional one (possibly empty), the rest
    /// (`{name*}`), or a raw pattern's text, printed by `build` and capturing nothing.
    enum TemplatePart: Sendable {
        case literal(String), capture(String), optional(String), rest(String), printed(String)

        /// The capture's name; nil for a literal or printed text.
        var captured: String? {
            switch self {
            case .capture(let name), .optional(let name), .rest(let name): name
            case .literal, .printed: nil
            }
        }
    }

    struct Capture: Sendable {
        let path: [TemplatePart]?
        let fragment: [TemplatePart]?
        let items: [CaptureItem]
        let type: String
        let params: [Param]
        init(type: String, path: [TemplatePart]? = nil, items: [CaptureItem] = [], fragment: [TemplatePart]? = nil, params: [Param] = []) {
            (self.path, self.fragment, self.items, self.type, self.params) = (path, fragment, items, type, params)
        }
    }

    struct CaptureItem: Sendable {
        let name: String
        let template: [TemplatePart]?
        init(name: String, template: [TemplatePart]? = nil) { (self.name, self.template) = (name, template) }
    }

    /// A parameter the binding names: taken from another capture, or a constant.
    struct Param: Sendable {
        let name: String
        let constant: Bool
        let value: String
        init(name: String, capture: String? = nil, constant: String? = nil) {
            (self.name, self.constant, self.value) = (name, constant != nil, constant ?? capture ?? name)
        }
    }

    /// A manifest path attribute, named as the manifest names it; `pathAdvancedPattern` pre-parsed: per token
    /// `[minimum, maximum (-1: none), inverted, low, high, ...]` in UTF-16 code units.
    enum ManifestPath: Sendable { case path(String), pathPrefix(String), pathPattern(String), pathAdvancedPattern([[Int]]) }

    /// A `dynamic_app_link_components` entry, its patterns as simple globs.
    struct Dynamic: Sendable {
        let path: String?
        let fragment: String?
        let query: [DynamicItem]
        init(path: String? = nil, fragment: String? = nil, query: [DynamicItem] = []) { (self.path, self.fragment, self.query) = (path, fragment, query) }
    }

    struct DynamicItem: Sendable {
        let name: String
        let value: String
        init(name: String, value: String) { (self.name, self.value) = (name, value) }
    }
}

// MARK: - Matching (Apple's pattern semantics, as linkd's matcher applies them)

extension LinkRouter {
    /// The table compiled once, at first use, as linkd compiles a domain (`CompiledRuleSet`, `RuleMatcher` and
    /// `PrefixIndex` in linkd): each pattern as elements over its bytes, each domain's apps grouped by the entries
    /// they are listed in, each group's rules behind an index of their literal path prefixes, and each capture with
    /// its templates and destination spec ready to read. An immutable class: a route takes one reference to it.
    final class Compiled: Sendable {
        static let shared = Compiled()
        let rules: [CompiledRule]
        /// Each rule's capture (nil: the rule names no destination for this app).
        let captures: [CompiledCapture?]
        let domains: [CompiledDomain]
        let hosts: [String: Int]

        private init() {
            let rules = table.rules.map(CompiledRule.init)
            self.rules = rules
            captures = table.rules.map { rule in rule.capture.map { CompiledCapture($0, form: Form(slot: rule.slot)) } }
            domains = table.domains.map { CompiledDomain($0, rules: rules) }
            var hosts: [String: Int] = [:]
            for (index, domain) in table.domains.enumerated() where hosts[domain.host] == nil { hosts[domain.host] = index }
            self.hosts = hosts
        }
    }

    /// A domain's apps grouped as linkd's `RuleMatcher` groups them: apps listed in exactly the same entries decide
    /// alike, so each group's rules are tried once, through the group's prefix index.
    final class CompiledDomain: Sendable {
        /// This app's index among the listed apps; -1 when the domain names it not.
        let app: Int
        /// Whose semantics decide: 0 iOS's, 1 Android's manifest, 2 Android's manifest and dynamic rules.
        let android: Int
        /// The group of each listed app.
        let groupOfApp: [Int]
        /// Each group's first listed app: a tie on an entry goes to the app listed first.
        let firstApp: [Int]
        /// Each group's rules as entry and rule numbers alternately, in entry order (`Domain.groups`).
        let lists: [[Int]]
        /// Each group's prefix index (none for a domain that decides as Android does).
        let indexes: [PrefixIndex]

        init(_ domain: Domain, rules: [CompiledRule]) {
            var groupOfList: [[Int]: Int] = [:]
            var groupOfApp: [Int] = []
            var firstApp: [Int] = []
            var lists: [[Int]] = []
            for (app, group) in domain.appGroups.enumerated() {
                let list = domain.groups[group]
                if let known = groupOfList[list] {
                    groupOfApp.append(known)
                    continue
                }
                groupOfList[list] = lists.count
                groupOfApp.append(lists.count)
                firstApp.append(app)
                lists.append(list)
            }
            (self.app, self.android, self.groupOfApp, self.firstApp, self.lists) = (domain.app, domain.android, groupOfApp, firstApp, lists)
            indexes = domain.android > 0 ? [] : lists.map { PrefixIndex($0, rules: rules) }
        }

        /// The first rule of `group` matching the subject, with its entry, in entry order.
        func first(_ group: Int, _ subject: inout Subject, _ rules: [CompiledRule]) -> (entry: Int, rule: Int)? {
            let list = lists[group]
            guard let position = indexes[group].first(&subject, { rules[list[2 * $0 + 1]].matches(&$1) }) else { return nil }
            return (list[2 * position], list[2 * position + 1])
        }
    }

    /// The rules of a group that could match a path, found without trying the others, as linkd's `PrefixIndex`
    /// finds them: one byte trie per form over the rules' literal path prefixes (a pattern's text before its first
    /// wildcard), and the rules without one, which are always candidates. A rule left out has a prefix the path does
    /// not start with, so it could not have matched; candidates are tried in entry order, so the first match wins.
    final class PrefixIndex: Sendable {
        /// One trie per form slot (`Form.slot`); nil when no rule compares in that form.
        private let tries: [Trie?]
        private let always: [Int]
        /// The number of 64-bit words a bit per rule takes.
        private let words: Int

        /// - Parameter list: the group's entry and rule numbers alternately; a rule's position is its pair's.
        init(_ list: [Int], rules: [CompiledRule]) {
            var built = [Trie.Builder?](repeating: nil, count: 4)
            var always: [Int] = []
            for position in 0..<(list.count / 2) {
                let rule = rules[list[2 * position + 1]]
                if rule.never { continue }
                let keys = rule.indexKeys
                // A prefix of `/` alone (or none) narrows nothing: every path starts so.
                guard keys.prefix.count > 1 else {
                    always.append(position)
                    continue
                }
                var builder = built[rule.form.slot] ?? Trie.Builder()
                builder.add(position, at: keys.prefix, exact: false)
                if let exact = keys.exact { builder.add(position, at: exact, exact: true) }
                built[rule.form.slot] = builder
            }
            (tries, self.always, words) = (built.map { $0.map(Trie.init) }, always, (list.count / 2 + 63) / 64)
        }

        /// The position of the first candidate for which `matches` is true, trying candidates in order.
        func first(_ subject: inout Subject, _ matches: (Int, inout Subject) -> Bool) -> Int? {
            guard words > 0 else { return nil }
            // The candidates as a bit per position, so they come out in order without sorting.
            return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: words) { bits in
                bits.initialize(repeating: 0)
                for position in always { bits[position >> 6] |= 1 << UInt64(position & 63) }
                for slot in 0..<4 {
                    guard let trie = tries[slot] else { continue }
                    let path = subject.path(Form.all[slot])
                    path.withUnsafeBufferPointer { trie.mark(path: $0, into: bits) }
                }
                for word in 0..<words {
                    var remaining = bits[word]
                    while remaining != 0 {
                        let position = word << 6 | remaining.trailingZeroBitCount
                        if matches(position, &subject) { return position }
                        remaining &= remaining - 1
                    }
                }
                return nil
            }
        }

        /// A byte trie frozen into flat arrays, its chains collapsed as linkd's `PrefixIndex.Trie` collapses them: a run
        /// of nodes with one child and no rules is one edge labelled with its bytes. Node `n`'s edges are
        /// `edgeStart[n]..<edgeStart[n + 1]`; edge `e` leads to `edgeTargets[e]` over `labels[labelStart[e]..<labelStart[e + 1]]`;
        /// node `n`'s rules are `rules[ruleStart[n]..<ruleStart[n + 1]]`, its exact rules (candidates only when the path
        /// ends at the node) likewise.
        final class Trie: Sendable {
            /// The trie while it is built: a node per index, each with its children and its lists.
            struct Builder {
                var children: [[(byte: UInt8, node: Int)]] = [[]]
                var rules: [[Int]] = [[]]
                var exact: [[Int]] = [[]]

                /// Adds rule `position` at the node for `key`, made with its ancestors as needed.
                mutating func add(_ position: Int, at key: [UInt8], exact isExact: Bool) {
                    var node = 0
                    for byte in key {
                        if let child = children[node].first(where: { $0.byte == byte }) {
                            node = child.node
                            continue
                        }
                        children[node].append((byte, children.count))
                        node = children.count
                        children.append([])
                        rules.append([])
                        exact.append([])
                    }
                    if isExact { exact[node].append(position) } else { rules[node].append(position) }
                }
            }

            private let edgeStart: [Int]
            private let labelStart: [Int]
            private let labels: [UInt8]
            private let edgeTargets: [Int]
            private let ruleStart: [Int]
            private let rules: [Int]
            private let exactStart: [Int]
            private let exact: [Int]

            init(_ built: Builder) {
                var edgeStart: [Int] = [], labelStart: [Int] = [], labels: [UInt8] = [], edgeTargets: [Int] = []
                var ruleStart: [Int] = [], rules: [Int] = [], exactStart: [Int] = [], exact: [Int] = []
                // Built nodes in the order they are frozen (a frozen node's number is its place here).
                var pending = [0]
                var next = 0
                while next < pending.count {
                    let node = pending[next]
                    next += 1
                    edgeStart.append(edgeTargets.count)
                    for child in built.children[node] {
                        labelStart.append(labels.count)
                        labels.append(child.byte)
                        var end = child.node
                        while built.children[end].count == 1, built.rules[end].isEmpty, built.exact[end].isEmpty {
                            labels.append(built.children[end][0].byte)
                            end = built.children[end][0].node
                        }
                        edgeTargets.append(pending.count)
                        pending.append(end)
                    }
                    ruleStart.append(rules.count)
                    rules += built.rules[node]
                    exactStart.append(exact.count)
                    exact += built.exact[node]
                }
                edgeStart.append(edgeTargets.count)
                labelStart.append(labels.count)
                ruleStart.append(rules.count)
                exactStart.append(exact.count)
                (self.edgeStart, self.labelStart, self.labels, self.edgeTargets) = (edgeStart, labelStart, labels, edgeTargets)
                (self.ruleStart, self.rules, self.exactStart, self.exact) = (ruleStart, rules, exactStart, exact)
            }

            /// Sets the bit of every rule whose prefix the path starts with, and of every exact rule of the path.
            func mark(path: UnsafeBufferPointer<UInt8>, into bits: UnsafeMutableBufferPointer<UInt64>) {
                var node = 0
                var depth = 0
                while true {
                    for index in ruleStart[node]..<ruleStart[node + 1] { bits[rules[index] >> 6] |= 1 << UInt64(rules[index] & 63) }
                    guard depth < path.count else {
                        for index in exactStart[node]..<exactStart[node + 1] { bits[exact[index] >> 6] |= 1 << UInt64(exact[index] & 63) }
                        return
                    }
                    // The edge starting with the path's next byte, if the path goes on with its whole label.
                    var edge = edgeStart[node]
                    while edge < edgeStart[node + 1], labels[labelStart[edge]] != path[depth] { edge += 1 }
                    guard edge < edgeStart[node + 1] else { return }
                    let label = labelStart[edge]..<labelStart[edge + 1]
                    guard depth + label.count <= path.count else { return }
                    for offset in 1..<label.count where labels[label.lowerBound + offset] != path[depth + offset] { return }
                    node = edgeTargets[edge]
                    depth += label.count
                }
            }
        }
    }

    /// A pattern as linkd compiles it (`Pattern`): without substitution variables (nearly every one), its literals,
    /// `?` and `*` as elements over one buffer of bytes, matched by a glob that allocates nothing; with variables,
    /// its ops, for the search.
    final class Pattern: Sendable {
        enum Element: Sendable { case literal(Range<Int>), one, star }
        let elements: [Element]
        let bytes: [UInt8]
        /// The ops of a pattern with variables; nil without.
        let ops: [Op]?
        /// The bytes every matching input starts with (empty when the pattern starts with a wildcard).
        let literalPrefix: [UInt8]
        /// Whether the pattern is one literal (a whole path, for `PrefixIndex`'s exact rules).
        let isLiteral: Bool

        init(_ tokens: [GlobToken]) {
            var elements: [Element] = []
            var bytes: [UInt8] = []
            var ops: [Op]?
            for token in tokens {
                switch token {
                case .literal(let text):
                    guard !text.isEmpty else { continue }
                    elements.append(.literal(bytes.count..<(bytes.count + text.utf8.count)))
                    bytes += text.utf8
                case .one: elements.append(.one)
                case .star: elements.append(.star)
                case .never, .characterClass, .alternatives: ops = Op.compile(tokens)
                }
            }
            var prefix: [UInt8] = []
            if case .literal(let text)? = tokens.first { prefix = Array(text.utf8) }
            (self.elements, self.bytes, self.ops, literalPrefix) = (ops == nil ? elements : [], bytes, ops, prefix)
            isLiteral = tokens.count == 1 && !prefix.isEmpty
        }

        func matches(_ input: [UInt8]) -> Bool {
            if let ops { return Glob.matches(ops, input) }
            return input.withUnsafeBufferPointer { input in bytes.withUnsafeBufferPointer { glob($0, input) } }
        }

        /// linkd's `Pattern.glob`, restated: the classic two-pointer glob with one backtrack point. A literal after
        /// the last `*` can only match the input's end, so it is compared there once; a `*` that ends the pattern
        /// takes the rest at once; after a `*`, the search for the next literal skips to bytes it can start at.
        private func glob(_ bytes: UnsafeBufferPointer<UInt8>, _ whole: UnsafeBufferPointer<UInt8>) -> Bool {
            var end = elements.count
            var inputEnd = whole.count
            if end >= 2, case .star = elements[end - 2], case .literal(let tail) = elements[end - 1] {
                // The tail is whole UTF-8 characters: its first byte starts one, so the `*` can stop there.
                guard tail.count <= whole.count, Self.has(bytes, tail, whole, at: whole.count - tail.count) else { return false }
                end -= 1
                inputEnd -= tail.count
            }
            let input = UnsafeBufferPointer(rebasing: whole[..<inputEnd])
            var p = 0
            var s = 0
            var starP = -1
            var starS = 0
            while p < end || s < input.count {
                if p < end {
                    switch elements[p] {
                    case .star:
                        if p + 1 == end { return true }
                        (starP, starS) = (p, s)
                        p += 1
                        continue
                    case .one:
                        if s < input.count {
                            s = Self.nextScalar(input, s)
                            p += 1
                            continue
                        }
                    case .literal(let literal):
                        if Self.has(bytes, literal, input, at: s) {
                            s += literal.count
                            p += 1
                            continue
                        }
                    }
                }
                guard starP >= 0, starS < input.count else { return false }
                starS = Self.nextScalar(input, starS)
                if case .literal(let next) = elements[starP + 1] {
                    // The literal can only start at its first byte, which starts a character.
                    let first = bytes[next.lowerBound]
                    while starS < input.count, input[starS] != first { starS += 1 }
                }
                (s, p) = (starS, starP + 1)
            }
            return true
        }

        private static func nextScalar(_ input: UnsafeBufferPointer<UInt8>, _ s: Int) -> Int {
            var next = s + 1
            while next < input.count, input[next] & 0xC0 == 0x80 { next += 1 }
            return next
        }

        private static func has(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: Range<Int>, _ input: UnsafeBufferPointer<UInt8>, at s: Int) -> Bool {
            guard s + literal.count <= input.count else { return false }
            var index = 0
            while index < literal.count {
                if input[s + index] != bytes[literal.lowerBound + index] { return false }
                index += 1
            }
            return true
        }
    }

    indirect enum Op: Sendable {
        case literal([UInt8]), one, star, never, characterClass(String, anyCase: Bool), alternatives([[Op]])

        static func compile(_ tokens: [GlobToken]) -> [Op] {
            tokens.map { token in
                switch token {
                case .literal(let text): .literal(Array(text.utf8))
                case .one: .one
                case .star: .star
                case .never: .never
                case .characterClass(let name, let anyCase): .characterClass(name, anyCase: anyCase)
                case .alternatives(let values): .alternatives(values.map(compile))
                }
            }
        }
    }

    final class CompiledRule: Sendable {
        let form: Form
        let exclude: Bool
        let never: Bool
        let path: Pattern?
        let parent: Pattern?
        let queryString: Pattern?
        let items: [(name: [UInt8], pattern: Pattern)]
        let fragment: Pattern?

        init(_ rule: Rule) {
            form = Form(slot: rule.slot)
            (exclude, never) = (rule.exclude, rule.never)
            path = rule.path.map(Pattern.init)
            parent = rule.parent.map(Pattern.init)
            queryString = rule.queryString.map(Pattern.init)
            items = rule.items.map { (Array($0.name.utf8), Pattern($0.pattern)) }
            fragment = rule.fragment.map(Pattern.init)
        }

        /// linkd's `CompiledRule.indexKeys`: the bytes every path the rule matches starts with, and, when it also
        /// matches one literal parent path (`/x/*` matches `/x`), that whole path.
        var indexKeys: (prefix: [UInt8], exact: [UInt8]?) {
            guard let path else { return ([], nil) }
            guard let parent else { return (path.literalPrefix, nil) }
            if parent.elements.isEmpty, parent.ops == nil { return (path.literalPrefix, []) }
            if parent.isLiteral { return (path.literalPrefix, parent.literalPrefix) }
            return (Array(zip(path.literalPrefix, parent.literalPrefix).prefix { $0 == $1 }.map(\.0)), nil)
        }

        func matches(_ subject: inout Subject) -> Bool {
            if never { return false }
            if let path {
                let text = subject.path(form)
                if !path.matches(text), parent.map({ !$0.matches(text) }) ?? true { return false }
            }
            if let queryString, !queryString.matches(subject.query(form)) { return false }
            if !items.isEmpty {
                let present = subject.items(form)
                for item in items {
                    var seen = false
                    for candidate in present where candidate.name == item.name {
                        seen = true
                        if !item.pattern.matches(candidate.value) { return false }   // every repeated item must match
                    }
                    if !seen, !item.pattern.matches([]) { return false }   // an absent item reads as ""
                }
            }
            if let fragment, !fragment.matches(subject.fragment(form)) { return false }
            return true
        }
    }

    /// The search for patterns with substitution variables.
    enum Glob {
        static func matches(_ ops: [Op], _ input: [UInt8]) -> Bool {
            var failed = [Bool](repeating: false, count: (ops.count + 1) * (input.count + 1))
            return search(ops, 0, 0, input, &failed)
        }

        /// linkd's `Pattern.search` (Matching/Pattern+Matching.swift in linkd) over this runtime's ops: the app
        /// cannot depend on linkd, so the search is restated here; the router fixtures hold the two alike.
        private static func search(_ ops: [Op], _ e: Int, _ s: Int, _ input: [UInt8], _ failed: inout [Bool]) -> Bool {
            if e == ops.count { return s == input.count }
            let key = e * (input.count + 1) + s
            if failed[key] { return false }
            var found = false
            switch ops[e] {
            case .literal(let bytes):
                found = has(bytes, input, s) && search(ops, e + 1, s + bytes.count, input, &failed)
            case .one:
                found = s < input.count && search(ops, e + 1, nextScalar(input, s), input, &failed)
            case .star:
                var t = input.count
                while t >= s {
                    if isBoundary(input, t), search(ops, e + 1, t, input, &failed) { found = true; break }
                    t -= 1
                }
            case .never:
                found = false
            case .characterClass(let name, let anyCase):
                found = s < input.count && contains(name, input[s], anyCase) && search(ops, e + 1, s + 1, input, &failed)
            case .alternatives(let alternatives):
                search: for alternative in alternatives {
                    var t = input.count
                    while t >= s {
                        if matches(alternative, Array(input[s..<t])), search(ops, e + 1, t, input, &failed) { found = true; break search }
                        t -= 1
                    }
                }
            }
            if !found { failed[key] = true }
            return found
        }

        static func has(_ bytes: [UInt8], _ input: [UInt8], _ s: Int) -> Bool {
            guard s + bytes.count <= input.count else { return false }
            for index in bytes.indices where input[s + index] != bytes[index] { return false }
            return true
        }

        static func nextScalar(_ input: [UInt8], _ s: Int) -> Int {
            var next = s + 1
            while next < input.count, input[next] & 0xC0 == 0x80 { next += 1 }
            return next
        }

        static func isBoundary(_ input: [UInt8], _ t: Int) -> Bool { t >= input.count || input[t] & 0xC0 != 0x80 }

        static func contains(_ name: String, _ byte: UInt8, _ anyCase: Bool) -> Bool {
            let upper = (0x41...0x5A).contains(byte), lower = (0x61...0x7A).contains(byte), digit = (0x30...0x39).contains(byte)
            switch name {
            case "alpha": return upper || lower
            case "upper": return upper || (anyCase && lower)
            case "lower": return lower || (anyCase && upper)
            case "alnum": return upper || lower || digit
            case "digit": return digit
            default: return digit || (0x61...0x66).contains(byte) || (0x41...0x46).contains(byte)
            }
        }
    }

    /// Which form of the URL a rule compares: percent-encoded or decoded, as written or lower-cased.
    struct Form: Hashable, Sendable {
        let percentEncoded: Bool
        let caseSensitive: Bool

        /// The table's number for the form (`Rule.slot`): 0 encoded and case-sensitive, 1 encoded and either case,
        /// 2 and 3 decoded.
        var slot: Int { (percentEncoded ? 0 : 2) + (caseSensitive ? 0 : 1) }
        init(percentEncoded: Bool, caseSensitive: Bool) { (self.percentEncoded, self.caseSensitive) = (percentEncoded, caseSensitive) }
        init(slot: Int) { (percentEncoded, caseSensitive) = (slot < 2, slot % 2 == 0) }
        static let all = (0..<4).map(Form.init(slot:))
    }

    /// Four optional values, one per form's slot, kept inline (no dictionary to hash into per URL). linkd's `Slots`
    /// (Matching/MatchSubject.swift in linkd), restated: this file ships inside the app, which cannot depend on linkd.
    struct Slots<Value> {
        private var s0: Value?
        private var s1: Value?
        private var s2: Value?
        private var s3: Value?

        subscript(slot: Int) -> Value? {
            get {
                switch slot {
                case 0: s0
                case 1: s1
                case 2: s2
                default: s3
                }
            }
            set {
                switch slot {
                case 0: s0 = newValue
                case 1: s1 = newValue
                case 2: s2 = newValue
                default: s3 = newValue
                }
            }
        }
    }

    /// A URL's path, query and fragment, and their forms computed once each, when first asked for.
    struct Subject {
        let raw: (path: [UInt8], query: [UInt8], fragment: [UInt8])
        private var paths = Slots<[UInt8]>()
        private var queries = Slots<[UInt8]>()
        private var fragments = Slots<[UInt8]>()
        private var itemLists = Slots<[(name: [UInt8], value: [UInt8])]>()

        init(path: [UInt8], query: [UInt8], fragment: [UInt8]) { raw = (path, query, fragment) }

        /// The path in `form`, with trailing `/` runs dropped (so `/` and the empty path are both empty).
        mutating func path(_ form: Form) -> [UInt8] {
            if let known = paths[form.slot] { return known }
            var bytes = Self.transform(raw.path, form)
            while bytes.last == 0x2F { bytes.removeLast() }
            paths[form.slot] = bytes
            return bytes
        }

        mutating func query(_ form: Form) -> [UInt8] {
            if let known = queries[form.slot] { return known }
            let bytes = Self.transform(raw.query, form)
            queries[form.slot] = bytes
            return bytes
        }

        mutating func fragment(_ form: Form) -> [UInt8] {
            if let known = fragments[form.slot] { return known }
            let bytes = Self.transform(raw.fragment, form)
            fragments[form.slot] = bytes
            return bytes
        }

        /// Split on `&`, then the first `=`, before decoding; empty pieces skipped; no `=` is the empty value.
        mutating func items(_ form: Form) -> [(name: [UInt8], value: [UInt8])] {
            if let known = itemLists[form.slot] { return known }
            var list: [(name: [UInt8], value: [UInt8])] = []
            for piece in raw.query.split(separator: 0x26, omittingEmptySubsequences: true) {
                let equals = piece.firstIndex(of: 0x3D)
                let name = Array(piece[..<(equals ?? piece.endIndex)])
                let value = equals.map { Array(piece[piece.index(after: $0)...]) } ?? []
                list.append((Self.transform(name, form), Self.transform(value, form)))
            }
            itemLists[form.slot] = list
            return list
        }

        static func transform(_ bytes: [UInt8], _ form: Form) -> [UInt8] {
            var result = form.percentEncoded ? bytes : percentDecoded(bytes)
            if !form.caseSensitive { result = lowercased(result) }
            return result
        }

        static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
            guard bytes.contains(0x25) else { return bytes }
            var out: [UInt8] = []
            var index = 0
            while index < bytes.count {
                if bytes[index] == 0x25, index + 2 < bytes.count, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) {
                    out.append(high << 4 | low)
                    index += 3
                } else {
                    out.append(bytes[index])
                    index += 1
                }
            }
            return out
        }

        static func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x61...0x66: byte - 0x61 + 10
            case 0x41...0x46: byte - 0x41 + 10
            default: nil
            }
        }

        static func lowercased(_ bytes: [UInt8]) -> [UInt8] {
            if bytes.allSatisfy({ $0 < 0x80 }) { return bytes.map { (0x41...0x5A).contains($0) ? $0 + 32 : $0 } }
            return Array(String(decoding: bytes, as: UTF8.self).lowercased().utf8)
        }
    }

    /// A URL split as linkd splits it (RFC 3986 §3): raw bytes beyond printable ASCII percent-encoded.
    struct URLParts {
        let scheme: String
        let host: String
        let hasUserInfo: Bool
        let path: [UInt8]
        let query: [UInt8]?
        let fragment: [UInt8]?

        init?(_ string: String) {
            // Split on the string's own bytes when it keeps them contiguous (a native string), else on a copy.
            guard let parts = string.utf8.withContiguousStorageIfAvailable(Self.split) ?? Array(string.utf8).withUnsafeBufferPointer(Self.split) else {
                return nil
            }
            self = parts
        }

        private init(scheme: String, host: String, hasUserInfo: Bool, path: [UInt8], query: [UInt8]?, fragment: [UInt8]?) {
            (self.scheme, self.host, self.hasUserInfo, self.path, self.query, self.fragment) = (scheme, host, hasUserInfo, path, query, fragment)
        }

        private static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> URLParts? {
            func isSchemeByte(_ byte: UInt8) -> Bool {
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2B || byte == 0x2D || byte == 0x2E
            }
            guard let colon = bytes.firstIndex(of: 0x3A), colon > 0, bytes[..<colon].allSatisfy(isSchemeByte),
                  !(0x30...0x39).contains(bytes[0]), bytes[0] != 0x2B, bytes[0] != 0x2D, bytes[0] != 0x2E else { return nil }
            let scheme = lowercasedText(bytes[..<colon])
            let slashes = bytes.count >= colon + 3 && bytes[colon + 1] == 0x2F && bytes[colon + 2] == 0x2F
            // A custom-scheme URL has no authority: what stands where a host would is its path's first segment, with
            // or without `//` (`widgets://widget/42`, `widgets:///widget/42`, `widgets:widget/42`, `widgets:/widget/42`).
            let web = scheme == "https" || scheme == "http"
            if web, !slashes { return nil }
            let authorityStart = slashes ? colon + 3 : colon + 1
            var authorityEnd = authorityStart
            while web, authorityEnd < bytes.count, bytes[authorityEnd] != 0x2F, bytes[authorityEnd] != 0x3F, bytes[authorityEnd] != 0x23 { authorityEnd += 1 }
            var hostStart = authorityStart
            if let at = bytes[authorityStart..<authorityEnd].lastIndex(of: 0x40) { hostStart = at + 1 }
            var hostEnd = authorityEnd
            if let portColon = bytes[hostStart..<authorityEnd].lastIndex(of: 0x3A), !bytes[portColon..<authorityEnd].contains(0x5D) {
                hostEnd = portColon
                let digits = bytes[(portColon + 1)..<authorityEnd]
                if !digits.isEmpty {
                    guard digits.allSatisfy({ (0x30...0x39).contains($0) }), let port = Int(String(decoding: digits, as: UTF8.self)), port <= 65535 else { return nil }
                }
            }
            if hostEnd > hostStart, bytes[hostEnd - 1] == 0x2E { hostEnd -= 1 }
            var end = bytes.count
            var fragment: [UInt8]?
            if let hash = bytes[authorityEnd...].firstIndex(of: 0x23) {
                fragment = encodeRaw(bytes[(hash + 1)..<end])
                end = hash
            }
            var query: [UInt8]?
            if let mark = bytes[authorityEnd..<end].firstIndex(of: 0x3F) {
                query = encodeRaw(bytes[(mark + 1)..<end])
                end = mark
            }
            let path = encodeRaw(bytes[authorityEnd..<end])
            return URLParts(scheme: scheme, host: lowercasedText(bytes[hostStart..<hostEnd]), hasUserInfo: hostStart > authorityStart,
                            path: !web && path.first.map({ $0 != 0x2F }) == true ? [0x2F] + path : path, query: query, fragment: fragment)
        }

        /// The bytes lower-cased as text (`Subject.lowercased`); as they are when they have nothing to lower-case.
        private static func lowercasedText(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
            guard bytes.contains(where: { (0x41...0x5A).contains($0) || $0 >= 0x80 }) else { return String(decoding: bytes, as: UTF8.self) }
            return String(decoding: Subject.lowercased(Array(bytes)), as: UTF8.self)
        }

        /// The bytes with every byte beyond printable ASCII percent-encoded, in upper-case hex.
        static func encodeRaw(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8] {
            func isRaw(_ byte: UInt8) -> Bool { byte <= 0x20 || byte >= 0x7F }
            guard bytes.contains(where: isRaw) else { return Array(bytes) }
            func hex(_ digit: UInt8) -> UInt8 { digit < 10 ? 0x30 + digit : 0x37 + digit }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count * 3)
            for byte in bytes {
                if isRaw(byte) {
                    out.append(0x25)
                    out.append(hex(byte >> 4))
                    out.append(hex(byte & 0xF))
                } else {
                    out.append(byte)
                }
            }
            return out
        }
    }

    /// A rule's capture read once: its templates as matched, in the rule's form; the query items it reads, named in
    /// that form; and its destination's spec with where each parameter's text comes from.
    final class CompiledCapture: Sendable {
        /// Where a parameter's text comes from: a constant of the binding, or a capture of the templates (by its
        /// number in `names`; nil: none of them captures it).
        enum Source: Sendable { case constant(String), capture(Int?) }

        let type: String
        let form: Form
        let path: Template?
        let fragment: Template?
        let items: [(name: [UInt8], template: Template?)]
        /// The names the templates capture, numbered by their place.
        let names: [String]
        /// The destination's spec, nil when the app has no such type; `sources` follows its parameters.
        let spec: Spec?
        let sources: [Source]

        init(_ capture: Capture, form: Form) {
            (type, self.form) = (capture.type, form)
            var names: [String] = []
            path = Template(capture.path, isPath: true, form: form, names: &names)
            fragment = Template(capture.fragment, isPath: false, form: form, names: &names)
            items = capture.items.map { item in
                (Array((form.caseSensitive ? item.name : item.name.lowercased()).utf8), Template(item.template, isPath: false, form: form, names: &names))
            }
            self.names = names
            let spec = table.specs.first { $0.type == capture.type }
            self.spec = spec
            sources = (spec?.params ?? []).map { param in
                let bound = capture.params.first { $0.name == param.name }
                if let bound, bound.constant { return .constant(bound.value) }
                return .capture(names.firstIndex(of: bound?.value ?? param.name))
            }
        }

        /// The typed destination from the URL's captures, with resolve's conversions and errors.
        func destination(_ subject: inout Subject) -> LinkDestination? {
            // The captured values by their names' numbers, in a buffer that lives for this call only (no allocation).
            withUnsafeTemporaryAllocation(of: String?.self, capacity: names.count) { found in
                found.initialize(repeating: nil)
                defer { found.deinitialize() }
                return destination(&subject, found)
            }
        }

        private func destination(_ subject: inout Subject, _ found: UnsafeMutableBufferPointer<String?>) -> LinkDestination? {
            var fits = (path?.captures(subject.raw.path, into: found) ?? true) && (fragment?.captures(subject.raw.fragment, into: found) ?? true)
            if fits, !items.isEmpty {
                let raw = subject.items(Form(percentEncoded: true, caseSensitive: true))
                let named = subject.items(form)
                for item in items where fits {
                    let value = named.firstIndex { $0.name == item.name }.map { raw[$0].value }
                    fits = item.template?.captures(value ?? [], into: found) ?? true
                }
            }
            guard fits else {
                return .invalid(code: "invalid_param", param: nil,
                                detail: "The URL is claimed by the rule's AASA pattern but does not fit its template (a capture such as {id} takes one path segment).")
            }
            guard let spec else {
                return .invalid(code: "unknown_destination", param: nil, detail: "The app has no destination type '\(type)'.")
            }
            var values: [Value?] = []
            values.reserveCapacity(sources.count)
            for (param, source) in zip(spec.params, sources) {
                let text: String?
                switch source {
                case .constant(let value): text = value
                case .capture(let number): text = number.flatMap { found[$0] }.flatMap { $0.isEmpty ? nil : $0 }
                }
                guard let text else {
                    if param.optional {
                        values.append(nil)
                        continue
                    }
                    return .invalid(code: "missing_param", param: param.name, detail: "The link has no value for the required parameter '\(param.name)'.")
                }
                switch param.convert(text) {
                case .success(let value): values.append(value)
                case .failure(let reason): return .invalid(code: "invalid_param", param: param.name, detail: "The parameter '\(param.name)' is invalid: \(reason.text).")
                }
            }
            return LinkDestination.make(type, values)
        }
    }

    /// A path or query-value template with captures, matched as resolve matches it.
    struct Template: Sendable {
        /// A literal (its bytes in `bytes`), or a capture numbered by its name's place in the capture's `names`;
        /// `optional`: a `{name}` capture a link may leave out (it takes zero characters or more).
        enum Element: Sendable { case literal(Range<Int>), capture(Int, rest: Bool, optional: Bool) }
        /// The elements as matched: a path's start with the `/` its subject is given.
        let elements: [Element]
        let bytes: [UInt8]
        let isPath: Bool
        let form: Form

        /// Nil when the parts capture nothing (`.printed` parts, a raw pattern's text, are only printed).
        /// - Parameter names: the capture names met so far, where this template's are added.
        init?(_ parts: [TemplatePart]?, isPath: Bool, form: Form, names: inout [String]) {
            var elements: [Element] = []
            var bytes: [UInt8] = []
            func literal(_ text: String) {
                elements.append(.literal(bytes.count..<(bytes.count + text.utf8.count)))
                bytes += text.utf8
            }
            func capture(_ name: String, rest: Bool, optional: Bool) {
                // A path starts with `/`, as its subject does.
                if isPath, elements.isEmpty { literal("/") }
                if !names.contains(name) { names.append(name) }
                elements.append(.capture(names.firstIndex(of: name) ?? 0, rest: rest, optional: optional))
            }
            for part in parts ?? [] {
                switch part {
                case .literal(let text): literal(isPath && elements.isEmpty && text.utf8.first != 0x2F ? "/" + text : text)
                case .printed: continue
                case .rest(let name): capture(name, rest: true, optional: true)
                case .optional(let name): capture(name, rest: false, optional: true)
                case .capture(let name): capture(name, rest: false, optional: false)
                }
            }
            guard !elements.isEmpty else { return nil }
            (self.elements, self.bytes, self.isPath, self.form) = (elements, bytes, isPath, form)
        }

        /// Whether `text` fits the template; each capture's value, percent-decoded, goes to `found` at its number
        /// (the first value recorded for a name stays).
        func captures(_ text: [UInt8], into found: UnsafeMutableBufferPointer<String?>) -> Bool {
            var subject = form.percentEncoded ? text : Array(String(decoding: Subject.percentDecoded(text), as: UTF8.self).utf8)
            if isPath {
                while subject.count > 1, subject.last == 0x2F { subject.removeLast() }
                if subject.first != 0x2F { subject.insert(0x2F, at: 0) }
            }
            return subject.withUnsafeBufferPointer { subject in
                bytes.withUnsafeBufferPointer { bytes in match(0, 0, subject, bytes, found) }
            }
        }

        /// Whether `subject[s...]` fits the elements from `e`: a capture takes at most one segment, its longest
        /// value that lets the rest fit first; a rest capture takes the rest.
        private func match(_ e: Int, _ s: Int, _ subject: UnsafeBufferPointer<UInt8>, _ bytes: UnsafeBufferPointer<UInt8>,
                           _ found: UnsafeMutableBufferPointer<String?>) -> Bool {
            guard e < elements.count else { return s == subject.count }
            func record(_ name: Int, _ range: Range<Int>) {
                guard found[name] == nil else { return }
                let value = UnsafeBufferPointer(rebasing: subject[range])
                // Text without `%` decodes to itself (its invalid UTF-8, if any, repaired as below).
                guard form.percentEncoded, value.contains(0x25) else {
                    found[name] = String(decoding: value, as: UTF8.self)
                    return
                }
                found[name] = String(decoding: Subject.percentDecoded(Array(String(decoding: value, as: UTF8.self).utf8)), as: UTF8.self)
            }
            switch elements[e] {
            case .literal(let literal):
                if s + literal.count <= subject.count, equal(subject, s, bytes, literal), match(e + 1, s + literal.count, subject, bytes, found) {
                    return true
                }
                // `/x/` before a last optional capture, or a rest capture, also fits `/x`: the capture is then empty.
                if isPath, !literal.isEmpty, bytes[literal.upperBound - 1] == 0x2F, e + 1 < elements.count,
                   case .capture(let name, let isRest, let optional) = elements[e + 1], isRest || (optional && e + 2 == elements.count),
                   s + literal.count - 1 == subject.count, equal(subject, s, bytes, literal.dropLast()) {
                    record(name, subject.count..<subject.count)
                    return true
                }
                return false
            case .capture(let name, let isRest, let optional):
                if isRest {
                    record(name, s..<subject.count)
                    return true
                }
                var end = s
                while end < subject.count, subject[end] != 0x2F { end += 1 }
                while end > s || (optional && end == s) {
                    if match(e + 1, end, subject, bytes, found) {
                        record(name, s..<end)
                        return true
                    }
                    end -= 1
                }
                return false
            }
        }

        /// Whether the subject has the literal's bytes at `s` (either case, for a case-insensitive rule).
        private func equal(_ subject: UnsafeBufferPointer<UInt8>, _ s: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ literal: Range<Int>) -> Bool {
            func fold(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 32 : byte }
            for index in 0..<literal.count {
                let (a, b) = (subject[s + index], bytes[literal.lowerBound + index])
                if form.caseSensitive ? a != b : fold(a) != fold(b) { return false }
            }
            return true
        }
    }

    /// JSON as resolve writes it, and the little reading `LinkDestination(resolveJSON:)` needs.
    enum JSON {
        indirect enum Node { case object([(String, Node)]), array([Node]), string(String), number(String), bool(Bool), null }

        static func quoted(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = Array("0123456789abcdef")
                    out += "\\u00" + String(hex[Int(scalar.value >> 4)]) + String(hex[Int(scalar.value & 0xF)])
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }

        static func destination(_ type: String, _ values: [(String, Value)]) -> String {
            "{\"type\":" + quoted(type) + ",\"params\":{" + values.map { quoted($0.0) + ":" + $0.1.json }.joined(separator: ",") + "}}"
        }

        static func error(code: String, param: String?, detail: String) -> String {
            "{\"error\":{\"code\":" + quoted(code) + (param.map { ",\"param\":" + quoted($0) } ?? "") + ",\"detail\":" + quoted(detail) + "}}"
        }

        static func parse(_ text: String) -> Node? {
            var reader = Reader(bytes: Array(text.utf8))
            guard let node = reader.value() else { return nil }
            reader.blanks()
            return reader.index == reader.bytes.count ? node : nil
        }

        struct Reader {
            let bytes: [UInt8]
            var index = 0

            mutating func blanks() { while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 } }

            mutating func value() -> Node? {
                blanks()
                guard index < bytes.count else { return nil }
                switch bytes[index] {
                case 0x7B:
                    index += 1
                    var members: [(String, Node)] = []
                    blanks()
                    if index < bytes.count, bytes[index] == 0x7D { index += 1; return .object(members) }
                    while true {
                        blanks()
                        guard case .string(let key)? = value() else { return nil }
                        blanks()
                        guard index < bytes.count, bytes[index] == 0x3A else { return nil }
                        index += 1
                        guard let member = value() else { return nil }
                        members.append((key, member))
                        blanks()
                        guard index < bytes.count else { return nil }
                        if bytes[index] == 0x2C { index += 1; continue }
                        if bytes[index] == 0x7D { index += 1; return .object(members) }
                        return nil
                    }
                case 0x5B:
                    index += 1
                    var items: [Node] = []
                    blanks()
                    if index < bytes.count, bytes[index] == 0x5D { index += 1; return .array(items) }
                    while true {
                        guard let item = value() else { return nil }
                        items.append(item)
                        blanks()
                        guard index < bytes.count else { return nil }
                        if bytes[index] == 0x2C { index += 1; continue }
                        if bytes[index] == 0x5D { index += 1; return .array(items) }
                        return nil
                    }
                case 0x22:
                    return string()
                case 0x74: return word("true", .bool(true))
                case 0x66: return word("false", .bool(false))
                case 0x6E: return word("null", .null)
                default:
                    let start = index
                    while index < bytes.count, "+-.eE0123456789".utf8.contains(bytes[index]) { index += 1 }
                    return index > start ? .number(String(decoding: bytes[start..<index], as: UTF8.self)) : nil
                }
            }

            mutating func word(_ text: String, _ node: Node) -> Node? {
                let word = Array(text.utf8)
                guard index + word.count <= bytes.count, Array(bytes[index..<(index + word.count)]) == word else { return nil }
                index += word.count
                return node
            }

            mutating func string() -> Node? {
                index += 1
                var out: [UInt8] = []
                var pendingHigh: UInt32?
                while index < bytes.count {
                    let byte = bytes[index]
                    index += 1
                    if byte == 0x22 { return .string(String(decoding: out, as: UTF8.self)) }
                    guard byte == 0x5C else { out.append(byte); continue }
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case 0x6E: out.append(0x0A)
                    case 0x72: out.append(0x0D)
                    case 0x74: out.append(0x09)
                    case 0x62: out.append(0x08)
                    case 0x66: out.append(0x0C)
                    case 0x75:
                        guard index + 4 <= bytes.count, var unit = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16) else { return nil }
                        index += 4
                        if (0xD800...0xDBFF).contains(unit) { pendingHigh = unit; continue }
                        if (0xDC00...0xDFFF).contains(unit), let high = pendingHigh { unit = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00) }
                        pendingHigh = nil
                        out += Array(String(Unicode.Scalar(unit).map(Character.init) ?? "\u{FFFD}").utf8)
                    default: out.append(escape)
                    }
                }
                return nil
            }
        }
    }
}

extension LinkDestination {
    /// The destination in resolve's `destination` JSON shape, byte for byte.
    public var json: String {
        if case .invalid(let code, let param, let detail) = self { return LinkRouter.JSON.error(code: code, param: param, detail: detail) }
        return LinkRouter.JSON.destination(type ?? "", values)
    }

    /// Whether links to this destination are for signed-in users (`LinkInbox` holds them until one is).
    public var requiresSignIn: Bool {
        guard let type else { return false }
        return LinkRouter.table.specs.first { $0.type == type }?.requiresSignIn ?? false
    }

    /// The error destination for a parameter's value the case cannot take: absent, or beyond what this device's
    /// type holds (an `int` past 32 bits on watchOS), so no link traps the app.
    static func unreadable(_ name: String, _ value: LinkRouter.Value?) -> LinkDestination {
        guard let value else {
            return .invalid(code: "missing_param", param: name, detail: "The link has no value for the required parameter '\(name)'.")
        }
        return .invalid(code: "invalid_param", param: name, detail: "The parameter '\(name)' is invalid: '\(value.text)' does not fit this device.")
    }

    /// An optional parameter's value read by `read`: `.some(nil)` when absent, nil when present but unreadable.
    static func optional<T>(_ value: LinkRouter.Value?, _ read: (LinkRouter.Value) -> T?) -> T?? {
        guard let value else { return .some(nil) }
        return read(value).map { .some($0) }
    }

    /// Reads a resolve answer (or its `destination` member alone) into a destination; nil when it has none.
    public init?(resolveJSON text: String) {
        guard case .object(var members)? = LinkRouter.JSON.parse(text) else { return nil }
        if let inner = members.first(where: { $0.0 == "destination" })?.1 {
            guard case .object(let destination) = inner else { return nil }
            members = destination
        }
        func string(_ node: LinkRouter.JSON.Node?) -> String? { if case .string(let text)? = node { text } else { nil } }
        if case .object(let error)? = members.first(where: { $0.0 == "error" })?.1 {
            let field = { (name: String) in error.first { $0.0 == name }?.1 }
            guard let code = string(field("code")), let detail = string(field("detail")) else { return nil }
            self = .invalid(code: code, param: string(field("param")), detail: detail)
            return
        }
        guard let type = string(members.first { $0.0 == "type" }?.1), let spec = LinkRouter.table.specs.first(where: { $0.type == type }),
              case .object(let params)? = members.first(where: { $0.0 == "params" })?.1 else { return nil }
        var values = [LinkRouter.Value?](repeating: nil, count: spec.params.count)
        for (name, node) in params {
            guard let index = spec.params.firstIndex(where: { $0.name == name }) else { return nil }
            let param = spec.params[index]
            let text: String
            switch node {
            case .string(let value): text = value
            case .number(let value): text = value
            case .bool(let flag): text = flag ? "true" : "false"
            default: return nil
            }
            guard case .success(let value) = param.convert(text) else { return nil }
            values[index] = value
        }
        guard !zip(spec.params, values).contains(where: { !$0.optional && $1 == nil }), let made = LinkDestination.make(type, values) else { return nil }
        self = made
    }
}

/// Encoded in resolve's JSON shape (`{"type": …, "params": {…}}`, `{"error": {…}}`), so a destination kept for state
/// restoration or a `NavigationPath` decodes with the same checks as a link, and `JSONDecoder` reads resolve's answers.
extension LinkDestination: Codable {
    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        if case .invalid(let code, let param, let detail) = self {
            var error = container.nestedContainer(keyedBy: Key.self, forKey: Key("error"))
            try error.encode(code, forKey: Key("code"))
            try error.encodeIfPresent(param, forKey: Key("param"))
            try error.encode(detail, forKey: Key("detail"))
            return
        }
        try container.encode(type ?? "", forKey: Key("type"))
        var params = container.nestedContainer(keyedBy: Key.self, forKey: Key("params"))
        for (name, value) in values {
            switch value {
            case .int(let number): try params.encode(number, forKey: Key(name))
            case .bool(let flag): try params.encode(flag, forKey: Key(name))
            case .string(let text), .uuid(let text): try params.encode(text, forKey: Key(name))
            }
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        if container.contains(Key("error")) {
            let error = try container.nestedContainer(keyedBy: Key.self, forKey: Key("error"))
            self = .invalid(code: try error.decode(String.self, forKey: Key("code")), param: try error.decodeIfPresent(String.self, forKey: Key("param")),
                            detail: try error.decode(String.self, forKey: Key("detail")))
            return
        }
        let type = try container.decode(String.self, forKey: Key("type"))
        guard let spec = LinkRouter.table.specs.first(where: { $0.type == type }) else {
            throw DecodingError.dataCorruptedError(forKey: Key("type"), in: container, debugDescription: "The app has no destination type '\(type)'.")
        }
        var values = [LinkRouter.Value?](repeating: nil, count: spec.params.count)
        if container.contains(Key("params")) {
            let params = try container.nestedContainer(keyedBy: Key.self, forKey: Key("params"))
            for (index, param) in spec.params.enumerated() where params.contains(Key(param.name)) {
                let key = Key(param.name)
                let text = switch param.kind {
                case "int": String(try params.decode(Int64.self, forKey: key))
                case "bool": try params.decode(Bool.self, forKey: key) ? "true" : "false"
                default: try params.decode(String.self, forKey: key)
                }
                switch param.convert(text) {
                case .success(let value): values[index] = value
                case .failure(let reason):
                    throw DecodingError.dataCorruptedError(forKey: key, in: params, debugDescription: "The parameter '\(param.name)' is invalid: \(reason.text).")
                }
            }
        }
        if let missing = zip(spec.params, values).first(where: { !$0.optional && $1 == nil })?.0 {
            throw DecodingError.keyNotFound(Key(missing.name), DecodingError.Context(codingPath: decoder.codingPath + [Key("params")],
                                                                                     debugDescription: "The required parameter '\(missing.name)' is absent."))
        }
        guard let made = LinkDestination.make(type, values) else {
            throw DecodingError.dataCorruptedError(forKey: Key("type"), in: container, debugDescription: "The app has no destination type '\(type)'.")
        }
        self = made
    }
}
