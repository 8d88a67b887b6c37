import ByteText

/// The URLs a generated router is checked on (`GET /v1/apps/{id}/codegen/fixtures`): for every rule of the app
/// on every domain of its table, a URL each capture's parameter accepts, URLs each one refuses (type, bounds),
/// its case, percent-encoding and trailing-slash variants, the same path on the custom scheme (every spelling),
/// and URLs no rule claims or no universal link can be (`http`, user information). The answers are the server's.
public enum RouterFixtures {
    public static func urls(_ table: RouterTable) -> [String] {
        var urls: [String] = []
        var seen: Set<String> = []
        func add(_ url: String) { if seen.insert(url).inserted { urls.append(url) } }
        let specs = Dictionary(table.destinations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for (index, domain) in table.domains.enumerated() {
            let host = domain.hostname.hasPrefix("*.") ? "m." + domain.hostname.dropFirst(2) : domain.hostname
            let variables = RuleMatcher.variables(domain.compiled.settings.substitutionVariables)
            var tails: [String] = ["/", "/__unmatched__/x"]
            for rule in domain.compiled.rules where rule.apps.contains(table.appID) {
                let spec = rule.destination.flatMap { specs[$0.type] }
                for values in samples(rule, spec) {
                    guard let tail = print(rule, values, variables) else { continue }
                    tails.append(tail)
                }
            }
            for tail in tails {
                let https = "https://" + host + tail
                add(https)
                for variant in variants(tail) { add("https://" + host + variant) }
                if index == table.schemeDomain, let scheme = table.scheme {
                    // Every spelling docs/LINKS.md accepts: two, three, one or no slashes after the colon.
                    add(scheme + "://" + tail.dropFirst())
                    add(scheme + ":///" + tail.dropFirst())
                    add(scheme + ":" + tail)
                    add(scheme + ":" + tail.dropFirst())
                }
            }
            if index == table.schemeDomain, let scheme = table.scheme, let tail = tails.last {
                // The scheme in capitals; a first segment that reads like a host with a port or user information.
                add(scheme.uppercased() + ":" + tail.dropFirst())
                add(scheme + "://user@" + tail.dropFirst())
                add(scheme + "://" + (tail.dropFirst().split(separator: "/", maxSplits: 1).first ?? "") + ":x/")
            }
            add("http://" + host + (tails.last ?? "/"))
            add("https://user:secret@" + host + (tails.last ?? "/"))
            add("https://" + host.uppercased() + ":443" + (tails.last ?? "/"))
        }
        return urls
    }

    /// Case, slash and encoding variants of a path-query-fragment tail.
    static func variants(_ tail: String) -> [String] {
        var (path, rest) = (tail, "")
        if let cut = tail.firstIndex(where: { $0 == "?" || $0 == "#" }) { (path, rest) = (String(tail[..<cut]), String(tail[cut...])) }
        var out = [path.uppercased() + rest, path + "/" + rest, path + "/extra" + rest]
        // The parent path (`/docs/{page*}` and `/x/*` also match `/docs` and `/x`).
        if let slash = path.lastIndex(of: "/"), slash > path.startIndex { out.append(String(path[..<slash]) + rest) }
        if let letter = path.firstIndex(where: { $0.isLetter && $0.isASCII }) {
            let escaped = Percent.encoded(String(path[letter]), keeping: { _ in false })
            out.append(String(path[..<letter]) + escaped + String(path[path.index(after: letter)...]) + rest)
        }
        return out
    }

    /// Capture values to try: one each parameter accepts, then per parameter the values its spec refuses.
    static func samples(_ rule: LinkRule, _ spec: DestinationType?) -> [[String: String]] {
        var valid: [String: String] = [:]
        var captureOf: [String: ParameterSpec] = [:]
        for name in rule.captureNames {
            let parameter = spec?.parameters.first { parameter in
                switch rule.destination?.params[parameter.name] {
                case .capture(let capture)?: capture == name
                case .constant?: false
                case nil: parameter.name == name
                }
            }
            captureOf[name] = parameter
            valid[name] = parameter.map(goodValue) ?? "x"
        }
        var all = [valid]
        for name in captureOf.keys.sorted() {
            guard let parameter = captureOf[name] else { continue }
            for bad in badValues(parameter) {
                var values = valid
                values[name] = bad
                all.append(values)
            }
            if case .string = parameter.kind {
                var values = valid
                values[name] = "caf\u{E9} & co/2"
                all.append(values)
            }
        }
        return all
    }

    static func goodValue(_ parameter: ParameterSpec) -> String {
        switch parameter.kind {
        case .int(let min, let max): String(Swift.max(min ?? 42, Swift.min(max ?? 42, 42)))
        case .string(let minLength, _): String(repeating: "a", count: Swift.max(minLength ?? 3, 1))
        case .uuid: "5A1D0E4C-8B1E-4F55-9C3A-0D2B6E7F8A90"
        case .bool: "yes"
        case .enumeration(let values): values.last ?? "x"
        }
    }

    static func badValues(_ parameter: ParameterSpec) -> [String] {
        switch parameter.kind {
        case .int(let min, let max):
            ["abc", "-", "99999999999999999999"]
                + [min.flatMap { $0 > Int64.min ? String($0 - 1) : nil }, max.flatMap { $0 < Int64.max ? String($0 + 1) : nil }].compactMap
            { $0 }
        case .string(let minLength, let maxLength):
            [
                minLength.flatMap { $0 > 1 ? String(repeating: "b", count: $0 - 1) : nil },
                maxLength.map { String(repeating: "c", count: $0 + 1) },
            ].compactMap { $0 }
        case .uuid: ["not-a-uuid"]
        case .bool: ["maybe", "TRUE"]
        case .enumeration(let values): ["zzz", (values.first ?? "x").uppercased()]
        }
    }

    /// Path, query and fragment for `values` (raw patterns with their wildcards filled in), or nil.
    static func print(_ rule: LinkRule, _ values: [String: String], _ variables: [String: [String]]) -> String? {
        func text(_ pattern: RulePattern?) -> String? {
            switch pattern {
            case .template(let template)?: template.render(values)
            case .raw(let raw)?: fill(raw, variables)
            case nil: nil
            }
        }
        var out = text(rule.path) ?? "/"
        if !out.hasPrefix("/") { out = "/" + out }
        switch rule.query {
        case .string(let raw)?: out += "?" + fill(raw, variables)
        case .items(let items)?:
            let printed = items.compactMap { item in text(item.pattern).map { item.name + "=" + $0 } }
            if !printed.isEmpty { out += "?" + printed.joined(separator: "&") }
        case nil: break
        }
        if let fragment = text(rule.fragment) { out += "#" + fragment }
        return out
    }

    /// A raw AASA pattern with `*` and `?` filled in and `$(name)` replaced by a value of the variable.
    static func fill(_ raw: String, _ variables: [String: [String]]) -> String {
        var out = ""
        var rest = Substring(raw)
        let builtIns = ["alpha": "a", "upper": "A", "lower": "a", "alnum": "a", "digit": "7", "xdigit": "f", "region": "US", "lang": "en"]
        while let character = rest.first {
            if rest.hasPrefix("$("), let close = rest.firstIndex(of: ")") {
                let name = String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close])
                out += fill(variables[name]?.first ?? builtIns[name] ?? "v", [:])
                rest = rest[rest.index(after: close)...]
                continue
            }
            out += character == "*" ? "x" : character == "?" ? "y" : String(character)
            rest = rest.dropFirst()
        }
        return out
    }
}
