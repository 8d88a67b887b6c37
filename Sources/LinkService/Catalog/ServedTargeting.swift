import Foundation
import LinkKit

/// A stored link's targets and variants compiled for the click path (`ServedLink.targeting`): conditions held as
/// the values a visitor is compared with, each choice's link made once, so choosing allocates nothing.
///
/// Choices are numbered slots: for each group (each target in order, then the link's own destination) one slot for
/// its own opening and one per variant. `Resolver.targeted` keeps each slot's answer with the link's.
///
/// Variants (docs/LINKS.md, "Targeting and experiments"): a visitor key hashes, with the link's id, into one of
/// `buckets` buckets (FNV-1a, the same on every node); a bucket goes to the variant with the lowest
/// `-ln(u) / weight`, `u` a hash of the bucket and the variant's name in (0, 1) (weighted rendezvous hashing). A
/// weight change moves only the buckets that must move: a variant whose share grows takes buckets from the others,
/// one whose share shrinks gives up some of its own, and no bucket moves between two variants whose weights both
/// stayed. A stopped variant (or weight 0) takes part in nothing: its buckets go, each deterministically, to the
/// variant that came second for it.
final class ServedTargeting: Sendable {
    /// How many buckets visitors hash into.
    static let buckets: UInt64 = 10_000

    /// A class: choosing reads each target's conditions in place, where a struct's many lists would be retained and
    /// released on every read.
    final class Conditions: Sendable {
        /// Two-letter codes packed as `UInt16` (`unknown` as 0).
        let countries: [UInt16]?
        let platforms: [LinkTargeting.PlatformRange]?
        let devices: [Hit.Device]?
        let browsers: [String]?
        let languages: [String]?
        let apps: [UUID]?
        let window: LinkTargeting.Window?
        let referrers: [String]?
        let utmSource: String?
        let utmMedium: String?
        let utmCampaign: String?
        let asksUTM: Bool

        init(_ conditions: LinkTargeting.Conditions) {
            countries = conditions.countries?.map(ServedTargeting.packed)
            platforms = conditions.platforms
            devices = conditions.devices?.compactMap(Hit.Device.init(rawValue:))
            browsers = conditions.browsers?.map { $0.lowercased() }
            languages = conditions.languages
            apps = conditions.apps
            window = conditions.window
            referrers = conditions.referrers
            utmSource = conditions.utm?["source"]
            utmMedium = conditions.utm?["medium"]
            utmCampaign = conditions.utm?["campaign"]
            asksUTM = conditions.utm != nil
        }

        /// Whether every condition holds for `visitor`.
        func hold(for visitor: TargetVisitor) -> Bool {
            if let countries, !countries.contains(visitor.country) { return false }
            if let platforms,
                !platforms.contains(where: { range in
                    guard range.platform == visitor.platform else { return false }
                    if range.minVersion == nil && range.maxVersion == nil { return true }
                    guard let version = visitor.osVersion else { return false }
                    return (range.minVersion.map { version >= $0 } ?? true) && (range.maxVersion.map { version <= $0 } ?? true)
                })
            {
                return false
            }
            if let devices, !devices.contains(visitor.device) { return false }
            if let browsers {
                guard let browser = visitor.browser, browsers.contains(where: { Self.equalIgnoringCase($0, browser) }) else { return false }
            }
            if let languages {
                guard let language = visitor.language, languages.contains(where: { Self.language($0, matches: language) }) else {
                    return false
                }
            }
            if let apps {
                guard let app = visitor.app, apps.contains(app) else { return false }
            }
            if let window {
                if let from = window.from, visitor.now < from { return false }
                if let until = window.until, visitor.now >= until { return false }
            }
            if let referrers {
                guard let host = visitor.referrerHost, referrers.contains(where: { Self.equalIgnoringCase($0, host) }) else { return false }
            }
            if asksUTM {
                if let utmSource, visitor.campaign?.source != utmSource { return false }
                if let utmMedium, visitor.campaign?.medium != utmMedium { return false }
                if let utmCampaign, visitor.campaign?.campaign != utmCampaign { return false }
            }
            return true
        }

        /// Whether `tag` (lower case) names `language` or a region of it: `de` matches `de`, `de-AT`; `pt-br` only `pt-BR`.
        static func language(_ tag: String, matches language: Substring) -> Bool {
            // Over both texts' bytes in place (a substring's UTF-8 view steps by string indexes, each one checked).
            let matched = tag.utf8.withContiguousStorageIfAvailable { tag in
                language.utf8.withContiguousStorageIfAvailable { language in
                    guard language.count >= tag.count else { return false }
                    for index in 0..<tag.count where lower(language[index]) != tag[index] { return false }
                    guard language.count > tag.count else { return true }
                    let next = language[tag.count]
                    return next == UInt8(ascii: "-") || next == UInt8(ascii: "_")
                }
            }
            if let matched = matched ?? nil { return matched }
            var candidate = language.utf8.makeIterator()
            for byte in tag.utf8 {
                guard let other = candidate.next(), lower(other) == byte else { return false }
            }
            let next = candidate.next()
            return next == nil || next == UInt8(ascii: "-") || next == UInt8(ascii: "_")
        }

        static func equalIgnoringCase(_ lowered: String, _ text: some StringProtocol) -> Bool {
            guard lowered.utf8.count == text.utf8.count else { return false }
            return zip(lowered.utf8, text.utf8).allSatisfy { $0 == lower($1) }
        }

        private static func lower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }
    }

    struct Variant: Sendable {
        let name: String
        let nameHash: UInt64
        let weight: Double
        let stopped: Bool
        let link: ServedLink
    }

    /// One target (or the link's own destination, with no conditions, last).
    struct Group: Sendable {
        let name: String?
        let conditions: Conditions?
        let link: ServedLink
        let variants: [Variant]
        /// The slot of its own opening; its variants' follow.
        let firstSlot: Int
    }

    let groups: [Group]
    let slotCount: Int
    /// FNV-1a 64 over the link id's bytes: where every visitor's bucket starts (`bucket(of:)`).
    private let linkHash: UInt64
    /// Whether a condition asks the visitor's country, `utm_*` items, language, referrer (read only then).
    let asksCountry: Bool
    let asksUTM: Bool
    let asksLanguage: Bool
    let asksReferrer: Bool

    /// Compiled from `link`'s targets and variants, each choice's link made by `make` from the link with that
    /// choice's opening.
    init(_ link: Link, make: (Link) -> ServedLink) {
        var groups: [Group] = []
        var slot = 0
        func variants(_ list: [LinkTargeting.Variant]?, over base: Link) -> [Variant] {
            (list ?? []).map { variant in
                Variant(
                    name: variant.name, nameHash: Self.fnv(variant.name.utf8), weight: Double(variant.weight), stopped: variant.stopped,
                    link: make(Self.opening(variant.opening, on: base)))
            }
        }
        for target in link.targets ?? [] {
            let base = Self.opening(target.opening, on: link)
            let list = variants(target.variants, over: base)
            groups.append(
                Group(name: target.name, conditions: Conditions(target.conditions), link: make(base), variants: list, firstSlot: slot))
            slot += 1 + list.count
        }
        var own = link
        own.targets = nil
        own.variants = nil
        let list = variants(link.variants, over: own)
        groups.append(Group(name: nil, conditions: nil, link: make(own), variants: list, firstSlot: slot))
        slot += 1 + list.count
        self.groups = groups
        slotCount = slot
        linkHash = Self.fnv(withUnsafeBytes(of: link.id.uuid) { Array($0) })
        asksCountry = groups.contains { $0.conditions?.countries != nil }
        asksUTM = groups.contains { $0.conditions?.asksUTM == true }
        asksLanguage = groups.contains { $0.conditions?.languages != nil }
        asksReferrer = groups.contains { $0.conditions?.referrers != nil }
    }

    /// The choice for `visitor`: the first group whose conditions hold, and its variant for `key` (none without a
    /// key, or when the group has no experiment).
    func choose(_ visitor: TargetVisitor, key: Substring?) -> (group: Int, variant: Int?) {
        guard var key else { return choose(visitor, key: nil as UnsafeBufferPointer<UInt8>?) }
        return key.withUTF8 { choose(visitor, key: $0) }
    }

    /// `choose(_:key:)` with the key's UTF-8 bytes (a resolve caller's `visitorId` read in place).
    func choose(_ visitor: TargetVisitor, key: UnsafeBufferPointer<UInt8>?) -> (group: Int, variant: Int?) {
        var chosen = groups.count - 1
        for index in groups.indices.dropLast() where groups[index].conditions?.hold(for: visitor) == true {
            chosen = index
            break
        }
        let group = groups[chosen]
        guard !group.variants.isEmpty, let key else { return (chosen, nil) }
        return (chosen, Self.variant(group.variants, bucket: bucket(of: key)))
    }

    /// The slot of a choice.
    func slot(_ choice: (group: Int, variant: Int?)) -> Int { groups[choice.group].firstSlot + (choice.variant.map { $0 + 1 } ?? 0) }

    /// The link and names of a slot.
    func choice(at slot: Int) -> (link: ServedLink, target: String?, variant: String?) {
        let group = groups.last { $0.firstSlot <= slot }!
        let offset = slot - group.firstSlot
        guard offset > 0 else { return (group.link, group.name, nil) }
        let variant = group.variants[offset - 1]
        return (variant.link, group.name, variant.name)
    }

    /// The visitor's bucket for this link: FNV-1a 64 over the link id's bytes and the key's.
    func bucket(of key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = linkHash
        for byte in key { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash % Self.buckets
    }

    /// The variant `bucket` goes to (weighted rendezvous over the running variants).
    static func variant(_ variants: [Variant], bucket: UInt64) -> Int? {
        var best: Int?
        var bestScore = Double.infinity
        for (index, variant) in variants.enumerated() where !variant.stopped && variant.weight > 0 {
            var mixed = bucket ^ variant.nameHash
            mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
            mixed ^= mixed >> 31
            let unit = (Double(mixed >> 11) + 0.5) / 9_007_199_254_740_992.0
            let score = -log(unit) / variant.weight
            if score < bestScore || (score == bestScore && variant.name < variants[best!].name) {
                best = index
                bestScore = score
            }
        }
        return best
    }

    static func fnv(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// A two-letter country code as a number (`unknown`, and nil, as 0).
    static func packed(_ code: some StringProtocol) -> UInt16 {
        let bytes = code.utf8
        guard bytes.count == 2 else { return 0 }
        return UInt16(bytes.first! & 0xDF) << 8 | UInt16(bytes[bytes.index(after: bytes.startIndex)] & 0xDF)
    }

    /// `link` opening `opening` instead of its own destination (its fallbacks and preview where the opening gives them).
    static func opening(_ opening: LinkTargeting.Opening, on link: Link) -> Link {
        var copy = link
        copy.targets = nil
        copy.variants = nil
        copy.appID = opening.app
        copy.destination = opening.destination
        copy.webURL = opening.url
        if let fallbacks = opening.fallbacks, fallbacks != .object([]) { copy.fallbacks = fallbacks }
        if let preview = opening.preview, preview != .object([]) { copy.preview = preview }
        return copy
    }
}

/// What targeting asks of one visitor (`ServedTargeting.Conditions.hold`): read from the click's request or the
/// resolve caller's parameters.
struct TargetVisitor {
    /// `ServedTargeting.packed` of the visitor's country; 0: unknown.
    var country: UInt16 = 0
    var platform: DevicePlatform = .other
    var osVersion: LinkTargeting.OSVersion?
    var device: Hit.Device = .other
    var browser: String?
    /// The first acceptable language (`Accept-Language` by quality).
    var language: Substring?
    var app: UUID?
    var now = Date()
    var referrerHost: Substring?
    var campaign: Hit.Campaign?

    /// The language of `header` with the highest quality (the first of equals); `*` and `q=0` are no language.
    /// Scanned in place over its UTF-8 bytes, the quality read as thousandths: no array of items, no `Double`
    /// parsing, no string index stepped (which cost more than the rest of a resolve's context).
    static func firstLanguage(_ header: String) -> Substring? {
        let found =
            header.utf8.withContiguousStorageIfAvailable(firstLanguage(in:))
            ?? Array(header.utf8).withUnsafeBufferPointer(firstLanguage(in:))
        guard let found else { return nil }
        let utf8 = header.utf8
        let lower = utf8.index(utf8.startIndex, offsetBy: found.lowerBound)
        return header[lower..<utf8.index(lower, offsetBy: found.count)]
    }

    /// `firstLanguage(_:)` over the header's bytes: the offsets of the tag.
    static func firstLanguage(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var best: Range<Int>?
        var bestQuality = 0
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
            var tagEnd = start
            while tagEnd < end, bytes[tagEnd] != UInt8(ascii: ";") { tagEnd += 1 }
            let tag = trimmed(start..<tagEnd, in: bytes)
            var quality = 1000
            if tagEnd < end {
                let parameters = trimmed(tagEnd + 1..<end, in: bytes)
                if parameters.count >= 2, bytes[parameters.lowerBound] == UInt8(ascii: "q"),
                    bytes[parameters.lowerBound + 1] == UInt8(ascii: "=")
                {
                    quality = thousandths(trimmed(parameters.lowerBound + 2..<parameters.upperBound, in: bytes), in: bytes)
                }
            }
            let isStar = tag.count == 1 && bytes[tag.lowerBound] == UInt8(ascii: "*")
            if quality > bestQuality, !tag.isEmpty, !isStar {
                best = tag
                bestQuality = quality
            }
            start = end == bytes.count ? end : end + 1
        }
        return best
    }

    /// A quality value (`1`, `0.5`, `0.125`) in thousandths; 0 for what is not a number.
    private static func thousandths(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var value = 0
        var scale = 1000
        var seenDot = false
        var digits = 0
        for byte in bytes[range] {
            if byte == UInt8(ascii: "."), !seenDot {
                seenDot = true
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digits += 1
                if !seenDot {
                    guard value <= 1_000_000 else { return 0 }
                    value = value * 10 + Int(byte - UInt8(ascii: "0")) * 1000
                } else if scale > 1 {
                    scale /= 10
                    value += Int(byte - UInt8(ascii: "0")) * scale
                }
            } else {
                return 0
            }
        }
        return digits > 0 ? value : 0
    }

    private static func trimmed(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == UInt8(ascii: " ") || bytes[lower] == UInt8(ascii: "\t") { lower += 1 }
        while lower < upper, bytes[upper - 1] == UInt8(ascii: " ") || bytes[upper - 1] == UInt8(ascii: "\t") { upper -= 1 }
        return lower..<upper
    }
}
