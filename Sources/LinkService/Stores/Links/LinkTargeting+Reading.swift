import Foundation
import LinkKit

extension LinkTargeting {
    /// Reads the array `targets` at `pointer` (each problem recorded at its RFC 6901 pointer, such as
    /// `/targets/2/conditions/countries/0`), refusing targets that can never decide: one whose conditions an earlier
    /// target's cover (shadowed), an unknown country, an empty or inverted window, an empty list.
    static func targets(_ elements: [(value: JSONValue, pointer: String)], errors: FieldErrors) -> [Target] {
        var targets: [Target] = []
        var names: Set<String> = []
        for (value, pointer) in elements {
            var body = JSONObjectReader(value, at: pointer, errors: errors)
            let name = body.string("name", required: true, limit: .name)
            let conditions = body.object("conditions", required: true).map { reader in
                var reader = reader
                defer { reader.finish() }
                return Self.conditions(&reader)
            }
            let opening = Self.opening(&body, required: true)
            let variants = body.array("variants", maxCount: maxVariants).map { Self.variants($0, at: body.at("variants"), errors: errors) }
            body.finish()
            guard let name, let conditions, let opening else { continue }
            if !names.insert(name).inserted { errors.add(JSONPointer.appending(pointer, "name"), "Another target is named '\(name)'.") }
            if let earlier = targets.firstIndex(where: { $0.conditions.covers(conditions) }) {
                errors.add(
                    JSONPointer.appending(pointer, "conditions"),
                    """
                    Target '\(targets[earlier].name)' (/targets/\(earlier)) holds for every visitor this one does, and comes first: this \
                    target could never decide. Narrow the earlier one, or put this one before it.
                    """)
            }
            targets.append(Target(name: name, conditions: conditions, opening: opening, variants: variants))
        }
        return targets
    }

    /// Reads the variants of a target or a link: names unique, weights from 0 to 10,000, at least one not stopped
    /// with a weight.
    static func variants(_ elements: [(value: JSONValue, pointer: String)], at pointer: String, errors: FieldErrors) -> [Variant] {
        guard !elements.isEmpty else {
            errors.add(pointer, "variants must list at least two variants (or be left out).")
            return []
        }
        var variants: [Variant] = []
        for (value, itemPointer) in elements {
            var body = JSONObjectReader(value, at: itemPointer, errors: errors)
            let name = body.string("name", required: true, limit: .name)
            let weight = body.integer("weight", required: true)
            let stopped = body.bool("stopped") ?? false
            let opening = Self.opening(&body, required: true, fallbacksAndPreview: false)
            body.finish()
            if let weight, !(0...10_000).contains(weight) {
                errors.add(JSONPointer.appending(itemPointer, "weight"), "weight must be from 0 to 10000.")
            }
            guard let name, let weight, let opening else { continue }
            if variants.contains(where: { $0.name == name }) {
                errors.add(JSONPointer.appending(itemPointer, "name"), "Another variant is named '\(name)'.")
            }
            variants.append(Variant(name: name, weight: Int(weight), opening: opening, stopped: stopped))
        }
        if variants.count == elements.count {
            if variants.count < 2 {
                errors.add(pointer, "variants must list at least two variants (or be left out).")
            } else if !variants.contains(where: { !$0.stopped && $0.weight > 0 }) {
                errors.add(pointer, "At least one variant must have a weight and not be stopped.")
            }
        }
        return variants
    }

    /// What a target or variant opens: `app` with `destination`, or `url` (checked as the link's own are; the
    /// destination's type against the app by the caller, `DestinationInput`).
    static func opening(_ body: inout JSONObjectReader, required: Bool, fallbacksAndPreview: Bool = true) -> Opening? {
        var probe = body
        let hasApp = body.has(LinkFields.app.name) && probe.value(LinkFields.app.name) != .null
        let hasDestination = body.has(LinkFields.destination.name) && probe.value(LinkFields.destination.name) != .null
        let hasURL = body.has(LinkFields.url.name) && probe.value(LinkFields.url.name) != .null
        let app = LinkFields.app.read(&body)
        let destination = LinkFields.destination.read(&body)
        let url = LinkFields.url.read(&body)
        var opening = Opening(app: app, destination: destination?.json, url: url)
        if fallbacksAndPreview {
            opening.fallbacks = LinkFields.fallbacks.read(&body)
            opening.preview = LinkFields.preview.read(&body)
        }
        if required, let problem = LinkInput.targetProblem(app: hasApp, destination: hasDestination, url: hasURL) {
            body.errors.add(body.at(problem.member), problem.detail)
            return nil
        }
        return opening
    }

    /// The destinations the targets and variants name, with where each is (for the check against the app's types).
    static func destinations(targets: [Target]?, variants: [Variant]?) -> [(app: UUID, destination: DestinationInput)] {
        var found: [(UUID, DestinationInput)] = []
        func add(_ opening: Opening, _ pointer: String) {
            guard let app = opening.app, let destination = opening.destination else { return }
            found.append((app, DestinationInput(stored: destination, at: pointer + "/destination")))
        }
        for (index, variant) in (variants ?? []).enumerated() { add(variant.opening, "/variants/\(index)") }
        for (index, target) in (targets ?? []).enumerated() {
            add(target.opening, "/targets/\(index)")
            for (inner, variant) in (target.variants ?? []).enumerated() { add(variant.opening, "/targets/\(index)/variants/\(inner)") }
        }
        return found
    }

    /// One target's conditions.
    private static func conditions(_ body: inout JSONObjectReader) -> Conditions {
        var conditions = Conditions()
        conditions.countries = list(&body, "countries") { text, pointer, errors in
            let code = text == "unknown" ? text : text.uppercased()
            guard countryCodes.contains(code) else {
                errors.add(pointer, "'\(text)' is no country code: use ISO 3166-1 alpha-2 codes (DE, US, …) or unknown.")
                return nil
            }
            return code
        }
        if let elements = body.array("platforms", maxCount: 10) {
            if elements.isEmpty {
                body.errors.add(body.at("platforms"), "platforms cannot be empty: leave it out to hold for every platform.")
            }
            var ranges: [PlatformRange] = []
            for (value, pointer) in elements {
                var item = JSONObjectReader(value, at: pointer, errors: body.errors)
                let platform = item.string("platform", required: true).flatMap { text -> DevicePlatform? in
                    guard let platform = DevicePlatform(rawValue: text) else {
                        item.errors.add(item.at("platform"), "platform must be one of ios, android, desktop, other.")
                        return nil
                    }
                    return platform
                }
                let versions = ["minVersion", "maxVersion"].map { key in
                    item.string(key).flatMap { text -> OSVersion? in
                        guard let version = OSVersion(text) else {
                            item.errors.add(item.at(key), "\(key) must be a version such as 17 or 16.4.")
                            return nil
                        }
                        return version
                    }
                }
                if let low = versions[0], let high = versions[1], low > high {
                    item.errors.add(item.at("maxVersion"), "maxVersion is below minVersion: no visitor's version is in the range.")
                }
                item.finish()
                if let platform { ranges.append(PlatformRange(platform: platform, minVersion: versions[0], maxVersion: versions[1])) }
            }
            conditions.platforms = ranges
        }
        conditions.devices = list(&body, "devices") { text, pointer, errors in
            guard deviceClasses.contains(text) else {
                errors.add(pointer, "A device class is one of \(deviceClasses.joined(separator: ", ")).")
                return nil
            }
            return text
        }
        conditions.browsers = list(&body, "browsers") { text, _, _ in text }
        conditions.languages = list(&body, "languages") { text, pointer, errors in
            let tag = text.lowercased()
            guard !tag.isEmpty, tag.count <= 35, tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }),
                tag.first!.isLetter
            else {
                errors.add(pointer, "A language is a BCP 47 tag such as de or pt-BR.")
                return nil
            }
            return tag
        }
        conditions.apps = list(&body, "apps") { text, pointer, errors in
            guard let id = UUID(uuidString: text) else {
                errors.add(pointer, "An app is named by its id (a UUID).")
                return nil
            }
            return id
        }
        if var window = body.object("window") {
            let dates = ["from", "until"].map { key in
                window.string(key).flatMap { text -> Date? in
                    guard case .date(let date) = RFC3339.read(text) else {
                        window.errors.add(window.at(key), RFC3339.refusal(key, RFC3339.read(text)))
                        return nil
                    }
                    return date
                }
            }
            if !window.has("from") && !window.has("until") {
                window.errors.add(window.pointer, "A window names from, until or both.")
            } else if let from = dates[0], let until = dates[1], until <= from {
                window.errors.add(window.at("until"), "The window is empty: until must be after from.")
            }
            window.finish()
            conditions.window = Window(from: dates[0], until: dates[1])
        }
        conditions.referrers = list(&body, "referrers") { text, pointer, errors in
            guard let host = try? Hostname(text) else {
                errors.add(pointer, "A referrer is a hostname such as news.example.com.")
                return nil
            }
            return host.rawValue
        }
        if var utm = body.object("utm") {
            var pairs: [String: String] = [:]
            for key in Conditions.utmKeys {
                if let value = utm.string(key, limit: .campaign) { pairs[key] = value }
            }
            if pairs.isEmpty { utm.errors.add(utm.pointer, "utm names source, medium or campaign.") }
            utm.finish()
            conditions.utm = pairs
        }
        return conditions
    }

    /// A list condition: absent is nil; empty is refused (it would hold for nobody); each value read by `read`.
    private static func list<T>(
        _ body: inout JSONObjectReader, _ key: String,
        _ read: (String, String, FieldErrors) -> T?
    ) -> [T]? {
        guard let elements = body.array(key, maxCount: maxValues) else { return nil }
        if elements.isEmpty { body.errors.add(body.at(key), "\(key) cannot be empty: leave it out to hold for every visitor.") }
        var values: [T] = []
        for (value, pointer) in elements {
            guard case .string(let text) = value else {
                body.errors.add(pointer, "Expected a string, found \(value.typeName).")
                continue
            }
            guard let text = JSONObjectReader.within(.name, text, at: pointer, named: "The value", body.errors) else { continue }
            if let read = read(text, pointer, body.errors) { values.append(read) }
        }
        return values
    }
}
