import ByteText

/// Writes a compiled domain's AASA file as bytes straight from its rules: exactly the bytes of the file's tree
/// (`CompiledDomain.aasaFile(…).json.serializedBytes`, `AASAWriterTests`), without the tree, the components and
/// their pattern strings, which a catalog load would otherwise build and drop for every domain.
///
/// The legacy form (`legacyPaths`) is written through the tree: few domains ask for it.
struct AASAWriter {
    private var bytes: [UInt8] = []

    /// The file of the iOS `details` entries (`CompiledDomain.details`) of `rules`.
    static func file(
        settings: DomainSettings, rules: [LinkRule], apps: [String: DomainApp], details: [(appIDs: [String], rules: [Int32])]
    ) -> [UInt8] {
        if settings.legacyPaths {
            return CompiledDomain.aasaFile(settings: settings, components: rules.map(\.component), apps: apps, details: details)
                .json.serializedBytes.compacted()
        }
        var writer = AASAWriter()
        // (A typical component is under 32 bytes: one allocation for most files.)
        writer.bytes.reserveCapacity(96 + 32 * rules.count)
        writer.raw("{\"applinks\":{")
        if let defaults = settings.defaults {
            writer.raw("\"defaults\":")
            defaults.json.serialize(into: &writer.bytes)
            writer.raw(",")
        }
        if !settings.substitutionVariables.isEmpty {
            writer.raw("\"substitutionVariables\":{")
            for (offset, variable) in settings.substitutionVariables.enumerated() {
                if offset > 0 { writer.raw(",") }
                writer.string(variable.name)
                writer.raw(":")
                writer.strings(variable.values)
            }
            writer.raw("},")
        }
        writer.raw("\"details\":[")
        for (offset, detail) in details.enumerated() {
            if offset > 0 { writer.raw(",") }
            writer.raw("{\"appIDs\":")
            writer.strings(detail.appIDs)
            writer.raw(",\"components\":[")
            for (index, position) in detail.rules.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.component(rules[Int(position)])
            }
            writer.raw("]}")
        }
        writer.raw("]}")
        writer.services("webcredentials", settings.webcredentials, apps: apps)
        writer.services("appclips", settings.appclips, apps: apps)
        writer.raw("}")
        return writer.bytes.compacted()
    }

    /// The component `rule` writes (`LinkRule.component`'s `json`): `/`, `?`, `#`, then the options.
    private mutating func component(_ rule: LinkRule) {
        raw("{")
        var first = true
        func key(_ name: StaticString) {
            if !first { raw(",") }
            first = false
            raw(name)
        }
        if let path = rule.path {
            key("\"/\":")
            pattern(path)
        }
        switch rule.query {
        case .string(let pattern)?:
            key("\"?\":")
            string(pattern)
        case .items(let items)?:
            key("\"?\":")
            raw("{")
            for (offset, item) in items.enumerated() {
                if offset > 0 { raw(",") }
                string(item.name)
                raw(":")
                pattern(item.pattern)
            }
            raw("}")
        case nil:
            break
        }
        if let fragment = rule.fragment {
            key("\"#\":")
            pattern(fragment)
        }
        let options = rule.options
        if let exclude = options.exclude {
            key("\"exclude\":")
            raw(exclude ? "true" : "false")
        }
        if let caseSensitive = options.caseSensitive {
            key("\"caseSensitive\":")
            raw(caseSensitive ? "true" : "false")
        }
        if let percentEncoded = options.percentEncoded {
            key("\"percentEncoded\":")
            raw(percentEncoded ? "true" : "false")
        }
        if let comment = options.comment {
            key("\"comment\":")
            string(comment)
        }
        raw("}")
    }

    /// The pattern's AASA text (`RulePattern.aasaPattern`) as a JSON string, a template's elements written in turn.
    private mutating func pattern(_ pattern: RulePattern) {
        switch pattern {
        case .raw(let text):
            string(text)
        case .template(let template):
            raw("\"")
            for element in template.elements {
                switch element {
                case .literal(let text): JSONString.appendEscaped(text, to: &bytes)
                case .capture(let name, let rest): raw(rest || template.optionalCaptures.contains(name) ? "*" : "?*")
                }
            }
            raw("\"")
        }
    }

    /// `,"<section>":{"apps":[…]}` for the iOS apps among `ids`, nothing when there are none (`aasaFile`).
    private mutating func services(_ section: StaticString, _ ids: [String], apps: [String: DomainApp]) {
        guard !ids.isEmpty else { return }
        let identifiers = ids.compactMap { apps[$0] }.filter { $0.platform == .ios }.map(\.identifier)
        guard !identifiers.isEmpty else { return }
        raw(",\"")
        raw(section)
        raw("\":{\"apps\":")
        strings(identifiers)
        raw("}")
    }

    private mutating func strings(_ values: [String]) {
        raw("[")
        for (offset, value) in values.enumerated() {
            if offset > 0 { raw(",") }
            string(value)
        }
        raw("]")
    }

    private mutating func string(_ value: String) { JSONString.append(value, to: &bytes) }

    private mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
