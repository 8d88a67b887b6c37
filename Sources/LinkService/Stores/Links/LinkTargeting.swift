import Foundation
import LinkKit

/// A link's targets and variants (issue 51, docs/LINKS.md "Targeting and experiments"): read and validated once,
/// by every door (single create, `PATCH`, bulk, the imports), and read back from the stored JSON with the same
/// reader. The first target whose conditions all hold decides what a visitor opens; the link's own destination is
/// the default. A target (or the link) may split its visitors between weighted variants.
enum LinkTargeting {
    /// The most targets a link may have, and variants a target or a link.
    static let maxTargets = 50
    static let maxVariants = 20
    /// The most values one condition lists.
    static let maxValues = 300

    /// What one target asks of a visitor; nil members ask nothing.
    struct Conditions: Sendable, Equatable {
        var countries: [String]?
        var platforms: [PlatformRange]?
        var devices: [String]?
        var browsers: [String]?
        var languages: [String]?
        var apps: [UUID]?
        var window: Window?
        var referrers: [String]?
        var utm: [String: String]?

        /// Whether every visitor these conditions hold for is one `other`'s hold for too: `self` asks no more than
        /// `other` of each condition.
        func covers(_ other: Conditions) -> Bool {
            func subset<T: Equatable>(_ mine: [T]?, _ theirs: [T]?) -> Bool {
                guard let mine else { return true }
                guard let theirs else { return false }
                return theirs.allSatisfy(mine.contains)
            }
            if !subset(countries, other.countries) || !subset(devices, other.devices) || !subset(browsers, other.browsers)
                || !subset(languages, other.languages) || !subset(apps, other.apps) || !subset(referrers, other.referrers)
            {
                return false
            }
            if let platforms {
                guard let theirs = other.platforms, theirs.allSatisfy({ range in platforms.contains { $0.contains(range) } }) else {
                    return false
                }
            }
            if let window {
                guard let theirs = other.window, window.contains(theirs) else { return false }
            }
            if let utm {
                guard let theirs = other.utm, utm.allSatisfy({ theirs[$0.key] == $0.value }) else { return false }
            }
            return true
        }

        var json: JSONValue {
            func list(_ values: [String]?) -> JSONValue? { values.map { .array($0.map(JSONValue.string)) } }
            var members: [JSONMember] = []
            func add(_ key: String, _ value: JSONValue?) { if let value { members.append(JSONMember(key: key, value: value)) } }
            add("countries", list(countries))
            add("platforms", platforms.map { .array($0.map(\.json)) })
            add("devices", list(devices))
            add("browsers", list(browsers))
            add("languages", list(languages))
            add("apps", apps.map { .array($0.map(JSONValue.uuid)) })
            add("window", window?.json)
            add("referrers", list(referrers))
            add(
                "utm",
                utm.map { utm in .object(Self.utmKeys.compactMap { key in utm[key].map { JSONMember(key: key, value: .string($0)) } }) })
            return .object(members)
        }

        static let utmKeys = ["source", "medium", "campaign"]
    }

    /// A device platform with an optional range of OS versions (`minVersion` and `maxVersion` both included).
    struct PlatformRange: Sendable, Equatable {
        var platform: DevicePlatform
        var minVersion: OSVersion?
        var maxVersion: OSVersion?

        func contains(_ other: PlatformRange) -> Bool {
            guard platform == other.platform else { return false }
            if let minVersion, !(other.minVersion.map { $0 >= minVersion } ?? false) { return false }
            if let maxVersion, !(other.maxVersion.map { $0 <= maxVersion } ?? false) { return false }
            return true
        }

        var json: JSONValue {
            JSONValue.object([
                "platform": .string(platform.rawValue), "minVersion": .optional(minVersion?.text),
                "maxVersion": .optional(maxVersion?.text),
            ]).compacted
        }
    }

    /// `major[.minor[.patch]]`, compared part by part (missing parts are 0).
    struct OSVersion: Sendable, Comparable {
        var parts: (Int32, Int32, Int32)

        init?(_ text: some StringProtocol) {
            if let parts = Self.digitParts(text.utf8) {
                self.parts = parts
                return
            }
            let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...3).contains(pieces.count), pieces.allSatisfy({ !$0.isEmpty && $0.count <= 6 && $0.allSatisfy(\.isASCII) }) else {
                return nil
            }
            let numbers = pieces.compactMap { Int32($0) }
            guard numbers.count == pieces.count, numbers.allSatisfy({ $0 >= 0 }) else { return nil }
            parts = (numbers[0], numbers.count > 1 ? numbers[1] : 0, numbers.count > 2 ? numbers[2] : 0)
        }

        init(_ major: Int32, _ minor: Int32, _ patch: Int32) { parts = (major, minor, patch) }

        /// `init(_:)` of UTF-8 bytes (a decoded query value read in place): the same answers.
        init?(bytes: UnsafeBufferPointer<UInt8>) {
            if let parts = Self.digitParts(bytes) {
                self.init(parts.0, parts.1, parts.2)
            } else {
                self.init(String(decoding: bytes, as: UTF8.self))
            }
        }

        /// The parts of the form callers send, one to three parts of one to six ASCII digits (`17`, `16.4`,
        /// `14.0.1`), read from the bytes in one pass; nil for any other text, which the general reading above
        /// decides (the same answers, with pieces and numbers made on the way).
        private static func digitParts(_ utf8: some Sequence<UInt8>) -> (Int32, Int32, Int32)? {
            var parts: (Int32, Int32, Int32) = (0, 0, 0)
            var part = 0
            var digits = 0
            var value: Int32 = 0
            for byte in utf8 {
                if byte == UInt8(ascii: "."), digits > 0, part < 2 {
                    if part == 0 { parts.0 = value } else { parts.1 = value }
                    part += 1
                    digits = 0
                    value = 0
                } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 6 {
                    value = value * 10 + Int32(byte - UInt8(ascii: "0"))
                    digits += 1
                } else {
                    return nil
                }
            }
            guard digits > 0 else { return nil }
            switch part {
            case 0: parts.0 = value
            case 1: parts.1 = value
            default: parts.2 = value
            }
            return parts
        }

        var text: String { "\(parts.0).\(parts.1).\(parts.2)" }

        static func < (lhs: OSVersion, rhs: OSVersion) -> Bool { lhs.parts < rhs.parts }
        static func == (lhs: OSVersion, rhs: OSVersion) -> Bool { lhs.parts == rhs.parts }
    }

    /// A time window: from `from` (included) until `until` (excluded); either may be open.
    struct Window: Sendable, Equatable {
        var from: Date?
        var until: Date?

        func contains(_ other: Window) -> Bool {
            if let from, !(other.from.map { $0 >= from } ?? false) { return false }
            if let until, !(other.until.map { $0 <= until } ?? false) { return false }
            return true
        }

        var json: JSONValue {
            JSONValue.object([
                "from": .optional(from.map { JSONValue.timestamp($0).stringValue! }),
                "until": .optional(until.map { JSONValue.timestamp($0).stringValue! }),
            ]).compacted
        }
    }

    /// What a target or a variant opens: an app's typed destination or a web page, with (targets only) fallbacks
    /// and preview, as the link's own fields.
    struct Opening: Sendable, Equatable {
        var app: UUID?
        var destination: JSONValue?
        var url: String?
        var fallbacks: JSONValue?
        var preview: JSONValue?
    }

    struct Variant: Sendable, Equatable {
        var name: String
        var weight: Int
        var opening: Opening
        var stopped: Bool

        var json: JSONValue {
            var members: [JSONMember] = [JSONMember(key: "name", value: .string(name)), JSONMember(key: "weight", value: .integer(weight))]
            members += LinkTargeting.members(of: opening)
            if stopped { members.append(JSONMember(key: "stopped", value: .bool(true))) }
            return .object(members)
        }
    }

    struct Target: Sendable, Equatable {
        var name: String
        var conditions: Conditions
        var opening: Opening
        var variants: [Variant]?

        var json: JSONValue {
            var members: [JSONMember] = [
                JSONMember(key: "name", value: .string(name)), JSONMember(key: "conditions", value: conditions.json),
            ]
            members += LinkTargeting.members(of: opening)
            if let variants { members.append(JSONMember(key: "variants", value: .array(variants.map(\.json)))) }
            return .object(members)
        }
    }

    static func members(of opening: Opening) -> [JSONMember] {
        var members: [JSONMember] = []
        if let app = opening.app { members.append(JSONMember(key: "app", value: .uuid(app))) }
        if let destination = opening.destination { members.append(JSONMember(key: "destination", value: destination)) }
        if let url = opening.url { members.append(JSONMember(key: "url", value: .string(url))) }
        if let fallbacks = opening.fallbacks, fallbacks != .object([]) { members.append(JSONMember(key: "fallbacks", value: fallbacks)) }
        if let preview = opening.preview, preview != .object([]) { members.append(JSONMember(key: "preview", value: preview)) }
        return members
    }

    /// The country codes a condition may name: ISO 3166-1 alpha-2 (as the GeoIP database names countries), and
    /// `unknown` for a visitor whose country is not known.
    static let countryCodes: Set<String> = {
        var codes = Set(Locale.Region.isoRegions.map(\.identifier).filter { $0.count == 2 && $0.allSatisfy(\.isLetter) })
        codes.insert("unknown")
        return codes
    }()

    /// The device classes a condition may name (`Hit.Device` without `bot`: bots get the preview).
    static let deviceClasses = ["mobile", "tablet", "desktop", "other"]
}
